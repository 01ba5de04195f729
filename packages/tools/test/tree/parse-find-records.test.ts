import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globToRegex } from '../../src/tree/glob-to-regex.js';
import { parseFindRecords } from '../../src/tree/parse-find-records.js';

describe('parseFindRecords', () => {
  it('B29: parses real find -printf records with a tab and a newline in names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandkit-find-'));
    try {
      writeFileSync(join(dir, 'a\nb.txt'), 'abc');
      writeFileSync(join(dir, 'tab\there'), '');
      mkdirSync(join(dir, 'sub'));
      symlinkSync('/etc', join(dir, 'etc-link'));
      const out = execFileSync('find', ['.', '-mindepth', '1', '-printf', '%P\\t%y\\t%s\\t%T@\\0'], {
        cwd: dir,
        encoding: 'utf8',
      });
      const entries = parseFindRecords(out).sort((x, y) => (x.path < y.path ? -1 : 1));
      expect(entries.map(({ path, kind }) => [path, kind])).toEqual([
        ['a\nb.txt', 'file'],
        ['etc-link', 'symlink'],
        ['sub', 'dir'],
        ['tab\there', 'file'],
      ]);
      expect(entries[0]).toMatchObject({ size: 3 });
      expect(entries[0]!.mtime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips malformed and cut records and never throws', () => {
    expect(parseFindRecords('x\tf\t1\t2.5\0bad\0y\tf\tNaN\t1\0z\tf\t1\t1')).toEqual([
      { path: 'x', kind: 'file', size: 1, mtime: '1970-01-01T00:00:02.500Z' },
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('\t', '\0', 'f', '12', '1.5')), { maxLength: 30 }),
        (parts) => {
          for (const entry of parseFindRecords(parts.join(''))) expect(entry.size).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('globToRegex', () => {
  it.each([
    ['*.ts', ['a.ts'], ['src/a.ts', 'a.tsx']],
    ['**/*.ts', ['a.ts', 'src/a.ts', 'a/b/c.ts'], ['a.js']],
    ['src/**', ['src/a', 'src/a/b'], ['srcx/a']],
    ['?.md', ['a.md'], ['ab.md', '/.md']],
    ['[!a]*.py', ['b.py'], ['a.py']],
    ['*.{js,ts}', ['x.js', 'x.ts'], ['x.py']],
    ['a+(b).txt', ['a+(b).txt'], ['aab.txt']],
    ['[unclosed', ['[unclosed'], ['u']],
  ])('%s', (glob, matching, other) => {
    const regex = new RegExp(`^${globToRegex(glob)}$`);
    for (const path of matching) expect(regex.test(path), path).toBe(true);
    for (const path of other) expect(regex.test(path), path).toBe(false);
  });

  it('never throws and a literal name (no glob characters) matches only itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.+()$^|\\ -]{1,20}$/), (name) => {
        expect(new RegExp(`^${globToRegex(name)}$`).test(name.replace(/^(\.\/|\/)+/, ''))).toBe(true);
      }),
    );
  });
});
