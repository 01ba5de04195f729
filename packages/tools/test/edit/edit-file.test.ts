import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../src/edit/edit-file.js';
import { createReadFileTool } from '../../src/files/read-file.js';
import { bytesOf, createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

let box: FileToolsSandbox;
beforeAll(async () => {
  box = await createFileToolsSandbox();
});
afterAll(() => box.handle.destroy());

type Edit = { oldText: string; newText: string; replaceAll?: boolean };
const edit = (path: string, edits: Edit[], extra: Record<string, unknown> = {}) =>
  createEditFileTool(box.handle.client, { root: box.root }).call({ path, edits, ...extra });
/** Lines of a unified diff that add or remove (not the ---/+++ headers). */
const changedLines = (diff: string) => diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));

describe('createEditFileTool', () => {
  describe('when the file has tabs (B07)', () => {
    it('B07: changes only the matched span and leaves every tab in place; the diff has one changed line', async () => {
      const makefile = 'build:\n\tcc -o app main.c\nclean:\n\trm -f app\n';
      await box.put('Makefile', makefile);
      const result = await edit('Makefile', [
        { oldText: 'cc -o app main.c', newText: 'cc -O2 -o app main.c' },
      ]);
      expect((await box.bytes('Makefile')).toString('latin1')).toBe(
        'build:\n\tcc -O2 -o app main.c\nclean:\n\trm -f app\n',
      );
      expect(changedLines(result.diff)).toEqual(['-\tcc -o app main.c', '+\tcc -O2 -o app main.c']);
      expect(result).toMatchObject({ firstChangedLine: 2, replacements: 1 });
    });
  });

  describe('when the file has CRLF line endings (B08)', () => {
    it('B08: matches LF oldText against CRLF bytes and writes CRLF back', async () => {
      await box.put('crlf.py', 'a = 1\r\nb = 2\r\nc = 3\r\n');
      const result = await edit('crlf.py', [{ oldText: 'a = 1\nb = 2', newText: 'a = 10\nb = 20' }]);
      expect(result.lineEnding).toBe('crlf');
      expect((await box.bytes('crlf.py')).toString('latin1')).toBe('a = 10\r\nb = 20\r\nc = 3\r\n');
    });

    it('B08: round-trips text copied from read_file output into an edit', async () => {
      await box.put('crlf2.txt', 'x\r\nfirst\r\nsecond\r\ny\r\n');
      const read = await createReadFileTool(box.handle.client, { root: box.root }).call({
        path: 'crlf2.txt',
        offset: 2,
        limit: 2,
        lineNumbers: false,
      });
      if (read.kind !== 'text') throw new Error(read.kind);
      await edit('crlf2.txt', [{ oldText: read.content, newText: 'only\nthis' }], {
        expectedRevision: read.revision,
      });
      expect((await box.bytes('crlf2.txt')).toString('latin1')).toBe('x\r\nonly\r\nthis\r\ny\r\n');
    });

    it("B08: reports a file with mixed endings and keeps each replaced line's own ending", async () => {
      await box.put('mixed.txt', 'a\r\nb\r\nc\nd\n');
      const result = await edit('mixed.txt', [
        { oldText: 'a\nb', newText: 'A\nB' },
        { oldText: 'c\nd', newText: 'C\nD' },
      ]);
      expect(result.lineEnding).toBe('mixed');
      expect(result.notice).toMatch(/mixes CRLF and LF/);
      expect((await box.bytes('mixed.txt')).toString('latin1')).toBe('A\r\nB\r\nC\nD\n');
    });

    it('B08: counts uniqueness in the normalised text', async () => {
      await box.put('crlf3.txt', 'a\r\nb\na\nb\r\n');
      const error = await toolError(edit('crlf3.txt', [{ oldText: 'a\nb', newText: 'c' }]));
      expect(error.code).toBe('not_unique');
      expect(error.message).toContain('occurs 2 times (lines 1, 3)');
    });
  });

  describe('when oldText is not unique (B14)', () => {
    it('B14: rejects a non-unique oldText, names the lines, and writes nothing', async () => {
      const source = 'if (a) {\n  return null;\n}\nif (b) {\n  return null;\n}\n';
      await box.put('h.js', source);
      const error = await toolError(
        edit('h.js', [{ oldText: '  return null;', newText: '  return undefined;' }]),
      );
      expect(error.code).toBe('not_unique');
      expect(error.message).toContain(
        'edit 1: oldText occurs 2 times (lines 2, 5); add surrounding lines to make it unique',
      );
      expect((await box.bytes('h.js')).toString('latin1')).toBe(source);
    });

    it('B14: rejects the whole batch when one edit fails, and says which one', async () => {
      const source = 'if (a) {\n  return null;\n}\nif (b) {\n  return null;\n}\n';
      await box.put('h2.js', source);
      const error = await toolError(
        edit('h2.js', [
          { oldText: 'if (a)', newText: 'if (aa)' },
          { oldText: '  return null;', newText: '  return 0;' },
        ]),
      );
      expect(error.message).toMatch(/^edit 2: oldText occurs 2 times/);
      expect((await box.bytes('h2.js')).toString('latin1')).toBe(source);
    });

    it('B14: rejects an empty oldText with its own code, not as "occurs N times"', async () => {
      await box.put('h3.js', 'x\n');
      const error = await toolError(edit('h3.js', [{ oldText: '', newText: 'y' }]));
      expect(error.code).toBe('empty_old_text');
      expect(error.message).not.toMatch(/occurs/);
    });

    it('rejects an oldText that is only a byte-order mark as empty (it matched "" and looped until the heap ran out)', async () => {
      await box.put('h3b.js', 'x\n');
      for (const replaceAll of [false, true]) {
        const error = await toolError(edit('h3b.js', [{ oldText: '\uFEFF', newText: 'y', replaceAll }]));
        expect(error.code).toBe('empty_old_text');
        expect(error.message).toMatch(/byte-order mark/);
      }
      expect((await box.bytes('h3b.js')).toString('latin1')).toBe('x\n');
    });

    it('replaces every occurrence with replaceAll', async () => {
      await box.put('h4.js', 'return null;\nreturn null;\n');
      const result = await edit('h4.js', [{ oldText: 'null', newText: 'undefined', replaceAll: true }]);
      expect(result.replacements).toBe(2);
      expect((await box.bytes('h4.js')).toString()).toBe('return undefined;\nreturn undefined;\n');
    });
  });

  describe('when the file has curly quotes (B15)', () => {
    it('B15: keeps U+2019 bytes and leaves the regex line byte-identical', async () => {
      const source =
        'const msg = "it’s done";          // U+2019\nconst re = /\\bLORD([\'’][sS])?\\b/; // both quotes on purpose\n';
      await box.put('i18n.js', Buffer.from(source, 'utf8'));
      await edit('i18n.js', [{ oldText: '"it’s done"', newText: '"it’s finished"' }]);
      const after = await box.bytes('i18n.js');
      const [line1, line2] = after.toString('utf8').split('\n');
      expect(line1).toBe('const msg = "it’s finished";          // U+2019');
      expect(after.includes(Buffer.from([0xe2, 0x80, 0x99]))).toBe(true);
      expect(line2).toBe(source.split('\n')[1]);
    });

    it('B15: does not treat a straight quote as matching a curly one', async () => {
      await box.put('q.js', Buffer.from('it’s\n', 'utf8'));
      expect((await toolError(edit('q.js', [{ oldText: "it's", newText: 'x' }]))).code).toBe('no_match');
    });
  });

  describe('when the file is not valid UTF-8 (B26)', () => {
    it('B26: writes the bad bytes back unchanged when the edit does not touch them', async () => {
      await box.put('legacy.txt', 'caf\xe9 = 1\nname = "Jos\xe9"\n');
      await edit('legacy.txt', [{ oldText: '= 1', newText: '= 2' }]);
      expect(await box.bytes('legacy.txt')).toEqual(bytesOf('caf\xe9 = 2\nname = "Jos\xe9"\n'));
    });

    it('B26: refuses an oldText holding U+FFFD copied from read_file, and explains why', async () => {
      await box.put('legacy2.txt', 'caf\xe9 = 1\n');
      const error = await toolError(edit('legacy2.txt', [{ oldText: 'caf\uFFFD = 1', newText: 'cafe = 1' }]));
      expect(error.code).toBe('no_match');
      expect(error.message).toMatch(/U\+FFFD.*not valid UTF-8/);
      expect(await box.bytes('legacy2.txt')).toEqual(bytesOf('caf\xe9 = 1\n'));
    });
  });

  describe('when the file has a BOM, a mode, or no final newline', () => {
    it('keeps the BOM, the mode and the missing final newline', async () => {
      await box.put('bom.sh', Buffer.from('\uFEFF#!/bin/sh\necho hi', 'utf8'), 0o755);
      await edit('bom.sh', [{ oldText: 'echo hi', newText: 'echo bye' }]);
      expect(await box.bytes('bom.sh')).toEqual(Buffer.from('\uFEFF#!/bin/sh\necho bye', 'utf8'));
      expect((await stat(join(box.root, 'bom.sh'))).mode & 0o777).toBe(0o755);
    });

    it('treats $ in newText literally', async () => {
      await box.put('dollar.txt', 'price: X\n');
      await edit('dollar.txt', [{ oldText: 'X', newText: "$& $1 $$ $' $`" }]);
      expect((await box.bytes('dollar.txt')).toString()).toBe("price: $& $1 $$ $' $`\n");
    });
  });

  describe('when edits are invalid', () => {
    it('rejects oldText equal to newText with no_op', async () => {
      await box.put('same.txt', 'a\n');
      expect((await toolError(edit('same.txt', [{ oldText: 'a', newText: 'a' }]))).code).toBe('no_op');
    });

    it('rejects overlapping edits and writes nothing', async () => {
      await box.put('overlap.txt', 'alpha beta gamma\n');
      const error = await toolError(
        edit('overlap.txt', [
          { oldText: 'alpha beta', newText: 'A' },
          { oldText: 'beta gamma', newText: 'B' },
        ]),
      );
      expect(error.code).toBe('overlapping_edits');
      expect(error.message).toContain('edits 1 and 2 overlap');
      expect((await box.bytes('overlap.txt')).toString()).toBe('alpha beta gamma\n');
    });

    it('matches every oldText against the original content, not after earlier edits', async () => {
      await box.put('orig.txt', 'one two\n');
      await edit('orig.txt', [
        { oldText: 'one', newText: 'two' },
        { oldText: 'two', newText: 'three' },
      ]);
      expect((await box.bytes('orig.txt')).toString()).toBe('two three\n');
    });

    it('B07: points to the similar line when oldText uses spaces where the file has a tab', async () => {
      await box.put('tabs.mk', 'all:\n\tcc -o app main.c\n');
      const error = await toolError(
        edit('tabs.mk', [{ oldText: '    cc -o app main.c', newText: '    cc -O2 -o app main.c' }]),
      );
      expect(error.code).toBe('no_match');
      expect(error.message).toMatch(/line 2 looks similar but differs in whitespace/);
      expect((await box.bytes('tabs.mk')).toString()).toBe('all:\n\tcc -o app main.c\n');
    });

    it('fails with not_found pointing to write_file for a missing file', async () => {
      const error = await toolError(edit('missing.txt', [{ oldText: 'a', newText: 'b' }]));
      expect(error.code).toBe('not_found');
      expect(error.message).toMatch(/write_file/);
    });

    it('refuses a path outside the root', async () => {
      expect((await toolError(edit('../x.txt', [{ oldText: 'a', newText: 'b' }]))).code).toBe('outside_root');
    });
  });

  describe('when an expectedRevision is given', () => {
    it('applies with the current revision and returns the new one', async () => {
      await box.put('rev.txt', 'v1\n');
      const read = await createReadFileTool(box.handle.client, { root: box.root }).call({ path: 'rev.txt' });
      const result = await edit('rev.txt', [{ oldText: 'v1', newText: 'v2' }], {
        expectedRevision: read.revision,
      });
      const reread = await createReadFileTool(box.handle.client, { root: box.root }).call({
        path: 'rev.txt',
      });
      expect(result.revision).toBe(reread.revision);
      expect(result.revision).not.toBe(read.revision);
    });

    it('accepts the revision read_file computed in the sandbox for a file too big to send whole', async () => {
      await box.put('big-rev.txt', `${'filler line\n'.repeat(30_000)}target\n`);
      const read = await createReadFileTool(box.handle.client, { root: box.root }).call({
        path: 'big-rev.txt',
        offset: 30_001,
      });
      expect(read).toMatchObject({ kind: 'text', content: '30001\ttarget' });
      expect(read.revision).toMatch(/^[0-9a-f]{16}$/);
      await edit('big-rev.txt', [{ oldText: 'target', newText: 'done' }], {
        expectedRevision: read.revision,
      });
      expect((await box.bytes('big-rev.txt')).subarray(-5).toString()).toBe('done\n');
    });

    it('fails with revision_mismatch on a stale revision and writes nothing', async () => {
      await box.put('rev2.txt', 'v1\n');
      const read = await createReadFileTool(box.handle.client, { root: box.root }).call({ path: 'rev2.txt' });
      await box.put('rev2.txt', 'v1 changed by someone else\n');
      const error = await toolError(
        edit('rev2.txt', [{ oldText: 'v1', newText: 'v2' }], { expectedRevision: read.revision }),
      );
      expect(error.code).toBe('revision_mismatch');
      expect((await box.bytes('rev2.txt')).toString()).toBe('v1 changed by someone else\n');
    });
  });

  describe('when many edits of one file run at once', () => {
    it('serialises them: 100 concurrent edits of distinct lines lose none', async () => {
      const lines = Array.from({ length: 100 }, (_, i) => `value ${i} = old`);
      await box.put('concurrent.txt', `${lines.join('\n')}\n`);
      const results = await Promise.allSettled(
        lines.map((_, i) =>
          edit('concurrent.txt', [{ oldText: `value ${i} = old`, newText: `value ${i} = new` }]),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const after = (await box.bytes('concurrent.txt')).toString();
      expect(after).toBe(`${lines.map((_, i) => `value ${i} = new`).join('\n')}\n`);
    }, 60_000);
  });
});
