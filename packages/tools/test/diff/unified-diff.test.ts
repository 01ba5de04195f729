import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/diff/unified-diff.js';

const work = mkdtempSync(join(tmpdir(), 'sandkit-unified-diff-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`);

/** Applies `diff` to `before` with GNU patch (fuzz 0) and returns the patched bytes. */
function patchWith(before: string, diff: string): string {
  const file = join(work, 'f.txt');
  writeFileSync(file, before);
  execFileSync('patch', ['--batch', '--fuzz=0', '--no-backup-if-mismatch', '-s', file], { input: diff });
  return readFileSync(file, 'utf8');
}

describe('unifiedDiff', () => {
  it('numbers hunks by file line for changes far apart', () => {
    const before = lines(100);
    const after = [...before];
    after[9] = 'changed 10\n';
    after[89] = 'changed 90\n';
    const diff = unifiedDiff('f.txt', Buffer.from(before.join('')), Buffer.from(after.join('')));
    expect(diff.split('\n').filter((l) => l.startsWith('@@'))).toEqual([
      '@@ -7,7 +7,7 @@',
      '@@ -87,7 +87,7 @@',
    ]);
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff('f.txt', Buffer.from('a\n'), Buffer.from('a\n'))).toBe('');
  });

  it('produces a diff that GNU patch applies exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(59), fc.constantFrom('replace', 'delete', 'insert')), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.boolean(),
        (changes, finalNewline) => {
          const before = lines(60);
          const after = [...before];
          for (const [at, kind] of changes.sort((a, b) => b[0] - a[0])) {
            if (kind === 'replace') after[at] = `new ${at}\n`;
            else if (kind === 'delete') after.splice(at, 1);
            else after.splice(at, 0, `inserted ${at}\n`);
          }
          const [oldText, newText] = [before.join(''), after.join('')].map((t) =>
            finalNewline ? t : t.replace(/\n$/, ''),
          );
          const diff = unifiedDiff('f.txt', Buffer.from(oldText!), Buffer.from(newText!));
          if (oldText === newText) return;
          expect(patchWith(oldText!, diff)).toBe(newText);
        },
      ),
      { numRuns: 40 },
    );
  });
});
