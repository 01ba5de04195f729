import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApplyDiffTool } from '../../src/patch/apply-diff.js';
import { toolError } from '../tool-error.js';

let sandbox: SandboxHandle;
beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterEach(async () => {
  await sandbox.destroy();
});

const tool = () => createApplyDiffTool(sandbox.client, { root: sandbox.workdir });
const put = (name: string, content: string) => writeFile(join(sandbox.workdir, name), content);
const get = (name: string) => readFile(join(sandbox.workdir, name), 'utf8');

const mPy =
  'def a():\n    x = 1\n    y = 2\n    return x\n\ndef b(self):\n    x = 1\n    y = 2\n    return x\n';
const b11Diff =
  '--- a/m.py\n+++ b/m.py\n@@ -1,4 +1,5 @@\n def b():\n     x = 1\n+    z = 3\n     y = 2\n     return x\n';

describe('createApplyDiffTool', () => {
  describe('when the target has no final newline', () => {
    it('B10: keeps a file without final newline without one when the hunk does not touch the last line', async () => {
      await put('data.txt', 'line1\nline2\nline3');
      const result = await tool().call({
        diff: '--- a/data.txt\n+++ b/data.txt\n@@ -1,2 +1,2 @@\n-line1\n+LINE1\n line2\n',
      });
      expect(await get('data.txt')).toBe('LINE1\nline2\nline3');
      expect(result).toMatchObject({
        files: [{ path: 'data.txt', status: 'modified' }],
        hunksApplied: 1,
        exact: true,
      });
    });

    it('B10: honours "\\ No newline at end of file" on both sides', async () => {
      await put('x.json', '{"a":1}');
      await tool().call({
        diff: '--- a/x.json\n+++ b/x.json\n@@ -1 +1 @@\n-{"a":1}\n\\ No newline at end of file\n+{"a":2}\n\\ No newline at end of file\n',
      });
      expect(await get('x.json')).toBe('{"a":2}');
    });

    it('B10: adds or removes the final newline when the diff says so', async () => {
      await put('a.txt', 'one');
      await put('b.txt', 'two\n');
      await tool().call({
        diff:
          '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n\\ No newline at end of file\n+one\n' +
          '--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-two\n+two\n\\ No newline at end of file\n',
      });
      expect(await get('a.txt')).toBe('one\n');
      expect(await get('b.txt')).toBe('two');
    });
  });

  describe('when the context matches only with fuzz', () => {
    it('B11: rejects a stale hunk at fuzz 0 with the non-matching line named, and writes nothing', async () => {
      await put('m.py', mPy);
      const error = await toolError(tool().call({ diff: b11Diff }));
      expect(error.code).toBe('patch_failed');
      expect(error.message).toContain('m.py: hunk 1');
      expect(error.message).toContain('context not found');
      expect(error.message).toContain('`def b():` does not match');
      expect(error.message).toContain('closest blocks start at lines 1, 6 (3 of 4 lines equal)');
      expect(await get('m.py')).toBe(mPy);
    });

    it('B11: refuses a fuzzy hunk that fits at more than one place, and z = 3 never lands in a()', async () => {
      await put('m.py', mPy);
      for (const fuzz of [1, 2, 3]) {
        const error = await toolError(tool().call({ diff: b11Diff, fuzz }));
        expect(error.code).toBe('patch_failed');
        expect(error.message).toMatch(/fits at \d+ places/);
      }
      expect(await get('m.py')).toBe(mPy);
    });

    it('B11: applies a unique fuzzy hunk only when asked and reports fuzz, line and offset, never plain success', async () => {
      await put('m.py', mPy.replace('    y = 2\n    return x\n\ndef b', '    w = 2\n    return x\n\ndef b'));
      const result = await tool().call({ diff: b11Diff, fuzz: 1 });
      const text = await get('m.py');
      expect(text).toContain('def b(self):\n    x = 1\n    z = 3\n    y = 2\n');
      expect(text.indexOf('z = 3')).toBeGreaterThan(text.indexOf('def b(self)'));
      expect(result.exact).toBe(false);
      expect(result.fuzzUsed).toBe(1);
      expect(result.offsets).toEqual([{ path: 'm.py', hunk: 1, line: 6, offset: 5, fuzz: 1 }]);
      expect(result.notes?.join('\n')).toContain('fuzz 1');
    });
  });

  describe('when the diff creates, deletes and renames files', () => {
    it('refuses to create a file below a regular file with not_directory, changing nothing (it said "files may be partly changed")', async () => {
      await put('plain.txt', 'keep\n');
      for (const path of ['plain.txt/x', 'plain.txt/deeper/y']) {
        const error = await toolError(
          tool().call({ diff: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+new\n` }),
        );
        expect(error.code, path).toBe('not_directory');
        expect(error.message, path).toContain(
          `cannot create ${path}: plain.txt is a file, not a directory; nothing was changed`,
        );
        expect(await get('plain.txt')).toBe('keep\n');
      }
    });
    it('creates a new file in a new directory and deletes another, leaving no .orig or .rej files', async () => {
      await put('old.txt', 'bye\n');
      const result = await tool().call({
        diff:
          'diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;\n' +
          'diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n',
      });
      expect(await get('src/new.ts')).toBe('export const a = 1;\nexport const b = 2;\n');
      expect(result.files).toEqual([
        { path: 'src/new.ts', status: 'added' },
        { path: 'old.txt', status: 'deleted' },
      ]);
      expect((await readdir(sandbox.workdir, { recursive: true })).sort()).toEqual(['src', 'src/new.ts']);
    });

    it('renames a file with spaces in both names through git rename headers', async () => {
      await put('my file.txt', 'a\nb\n');
      const result = await tool().call({
        diff:
          'diff --git a/my file.txt b/your file.txt\nsimilarity index 50%\nrename from my file.txt\nrename to your file.txt\n' +
          '--- a/my file.txt\n+++ b/your file.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n',
      });
      expect(await get('your file.txt')).toBe('A\nb\n');
      expect(result.files).toEqual([{ path: 'your file.txt', status: 'renamed' }]);
      expect(await readdir(sandbox.workdir)).toEqual(['your file.txt']);
    });

    it('patches files named with spaces, quotes and non-ASCII letters, C-quoted by git', async () => {
      await put('say "hi".txt', 'x\n');
      await put('café.txt', 'y\n');
      await put('plain name.txt', 'z\n');
      await tool().call({
        diff:
          'diff --git "a/say \\"hi\\".txt" "b/say \\"hi\\".txt"\n--- "a/say \\"hi\\".txt"\n+++ "b/say \\"hi\\".txt"\n@@ -1 +1 @@\n-x\n+X\n' +
          'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"\n--- "a/caf\\303\\251.txt"\n+++ "b/caf\\303\\251.txt"\n@@ -1 +1 @@\n-y\n+Y\n' +
          '--- a/plain name.txt\t2024-01-01 00:00:00.000000000 +0000\n+++ b/plain name.txt\t2024-01-01 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-z\n+Z\n',
      });
      expect([await get('say "hi".txt'), await get('café.txt'), await get('plain name.txt')]).toEqual([
        'X\n',
        'Y\n',
        'Z\n',
      ]);
    });

    it('refuses to create a file that already exists and changes nothing', async () => {
      await put('a.txt', 'keep\n');
      const error = await toolError(
        tool().call({ diff: '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+new\n' }),
      );
      expect(error.code).toBe('patch_failed');
      expect(error.message).toContain('a.txt already exists');
      expect(await get('a.txt')).toBe('keep\n');
    });
  });

  describe('when the header line numbers are stale', () => {
    it('applies a hunk whose exact context occurs once elsewhere and reports the offset', async () => {
      await put('o.txt', 'h1\nh2\nh3\na\nb\nc\n');
      const result = await tool().call({
        diff: '--- a/o.txt\n+++ b/o.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
      });
      expect(await get('o.txt')).toBe('h1\nh2\nh3\na\nB\nc\n');
      expect(result).toMatchObject({
        exact: false,
        offsets: [{ path: 'o.txt', hunk: 1, line: 4, offset: 3, fuzz: 0 }],
      });
      expect(result.fuzzUsed).toBeUndefined();
    });

    it('refuses, at fuzz 0, a shifted hunk whose exact context occurs twice', async () => {
      const twice = 'x\na\nb\nc\ny\na\nb\nc\n';
      await put('t.txt', twice);
      const error = await toolError(
        tool().call({ diff: '--- a/t.txt\n+++ b/t.txt\n@@ -10,3 +10,3 @@\n a\n-b\n+B\n c\n' }),
      );
      expect(error.message).toContain('fits at 2 places (lines 2, 6)');
      expect(await get('t.txt')).toBe(twice);
    });
  });

  describe('when a later hunk fails', () => {
    it('changes no file at all and names the failing file and hunk', async () => {
      await put('a.txt', '1\n2\n3\n');
      await put('b.txt', 'p\nq\n');
      const error = await toolError(
        tool().call({
          diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n p\n-r\n+R\n',
        }),
      );
      expect(error.message).toContain('b.txt: hunk 1 (@@ -1,2 +1,2 @@) context not found');
      expect(error.message).toContain('`r` does not match any line of b.txt');
      expect(error.details.conflicts).toEqual([
        { path: 'b.txt', hunk: 1, reason: expect.stringContaining('`r`') },
      ]);
      expect([await get('a.txt'), await get('b.txt')]).toEqual(['1\n2\n3\n', 'p\nq\n']);
      expect((await readdir(sandbox.workdir)).sort()).toEqual(['a.txt', 'b.txt']);
    });

    it('refuses two sections for the same file with a message saying to merge them', async () => {
      await put('two.txt', 'a\nb\nc\n');
      const section = (from: string, to: string) =>
        `--- a/two.txt\n+++ b/two.txt\n@@ -1,3 +1,3 @@\n a\n-${from}\n+${to}\n c\n`;
      const error = await toolError(tool().call({ diff: section('b', 'B') + section('B', 'BB') }));
      expect(error.code).toBe('invalid_patch');
      expect(error.message).toContain('more than one "--- / +++" section for two.txt');
      expect(await get('two.txt')).toBe('a\nb\nc\n');
    });

    it('says the hunks must follow the order of their lines when one comes after a hunk below it, or repeats it', async () => {
      await put('order.txt', 'a\nb\nc\nd\ne\nf\ng\nh\n');
      const hunk = (line: number, from: string, to: string) =>
        `@@ -${line},1 +${line},1 @@\n-${from}\n+${to}\n`;
      for (const [second, ahead] of [
        [hunk(1, 'a', 'A'), '@@ -6,1 @@'],
        [hunk(6, 'f', 'F'), '@@ -6,1 @@'],
      ] as const) {
        const diff = `--- a/order.txt\n+++ b/order.txt\n${hunk(6, 'f', 'F')}${second}`;
        const error = await toolError(tool().call({ diff }));
        expect(error.message).toContain(`hunk 2 (${second.split('\n')[0]}) context not found`);
        expect(error.message).toContain(`at or above hunk 1 (${ahead})`);
        expect(error.message).toContain('in the order of their line numbers');
        expect(await get('order.txt')).toBe('a\nb\nc\nd\ne\nf\ng\nh\n');
      }
    });

    it('reports a diff that is already applied', async () => {
      await put('a.txt', 'new\n');
      const error = await toolError(
        tool().call({ diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n' }),
      );
      expect(error.message).toContain('already applied');
    });
  });

  describe('when the target uses CRLF line endings', () => {
    it('applies an LF diff and keeps every line CRLF', async () => {
      await put('w.txt', 'one\r\ntwo\r\nthree\r\n');
      await tool().call({
        diff: '--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+2.5\n three\n',
      });
      expect(await get('w.txt')).toBe('one\r\nTWO\r\n2.5\r\nthree\r\n');
    });

    it('applies a CRLF diff to an LF file and keeps LF', async () => {
      await put('u.txt', 'one\ntwo\n');
      await tool().call({
        diff: '--- a/u.txt\r\n+++ b/u.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+TWO\r\n',
      });
      expect(await get('u.txt')).toBe('one\nTWO\n');
    });
  });

  describe('when cwd or stripLevel are given', () => {
    it("answers a cwd that is missing or a file with not_found naming the cwd (it said the diff's files did not exist)", async () => {
      await put('cwd-file.txt', 'x\n');
      for (const cwd of ['no-such-dir', 'cwd-file.txt']) {
        const error = await toolError(
          tool().call({ cwd, diff: '--- a/cwd-file.txt\n+++ b/cwd-file.txt\n@@ -1 +1 @@\n-x\n+X\n' }),
        );
        expect({ code: error.code, message: error.message }, cwd).toEqual({
          code: 'not_found',
          message: `cwd "${cwd}" is not an existing directory under the workspace root; list_files shows what exists`,
        });
      }
      expect(await get('cwd-file.txt')).toBe('x\n');
    });
    it('resolves names against cwd and strips the given number of components, reporting root-relative paths', async () => {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(sandbox.workdir, 'pkg/sub'), { recursive: true });
      await put('pkg/x.txt', 'x\n');
      await put('pkg/sub/y.txt', 'y\n');
      const result = await tool().call({
        cwd: 'pkg',
        stripLevel: 2,
        diff: '--- one/two/x.txt\n+++ one/two/x.txt\n@@ -1 +1 @@\n-x\n+X\n--- one/two/sub/y.txt\n+++ one/two/sub/y.txt\n@@ -1 +1 @@\n-y\n+Y\n',
      });
      expect(result.files.map((file) => file.path)).toEqual(['pkg/x.txt', 'pkg/sub/y.txt']);
      expect([await get('pkg/x.txt'), await get('pkg/sub/y.txt')]).toEqual(['X\n', 'Y\n']);
    });
  });

  describe('when the diff is malformed or points outside the root', () => {
    it('corrects wrong @@ counts from the hunk body and says so', async () => {
      await put('c.txt', 'a\nb\nc\n');
      const result = await tool().call({
        diff: '--- a/c.txt\n+++ b/c.txt\n@@ -1,7 +1,9 @@\n a\n-b\n+B\n c\n',
      });
      expect(await get('c.txt')).toBe('a\nB\nc\n');
      expect(result.notes).toEqual(['c.txt: hunk 1 header counts corrected to -1,3 +1,3']);
    });

    it('throws invalid_patch for text without file headers', async () => {
      const error = await toolError(tool().call({ diff: 'just some words\n' }));
      expect(error.code).toBe('invalid_patch');
    });

    it('refuses a target outside the root before running patch', async () => {
      const error = await toolError(
        tool().call({ diff: '--- a/../escape.txt\n+++ b/../escape.txt\n@@ -0,0 +1 @@\n+x\n' }),
      );
      expect(error.code).toBe('outside_root');
    });

    it('refuses a target reached through a symlink that leaves the root', async () => {
      const { symlink } = await import('node:fs/promises');
      await symlink('/tmp', join(sandbox.workdir, 'out'));
      const error = await toolError(
        tool().call({ diff: '--- /dev/null\n+++ b/out/sandkit-escape.txt\n@@ -0,0 +1 @@\n+x\n' }),
      );
      expect(error.code).toBe('outside_root');
    });

    it('answers a target that is a directory, below a file, a FIFO, a symlink loop or too long with a tool error, not a thrown SandboxError', async () => {
      const { execFileSync } = await import('node:child_process');
      const { mkdir, symlink } = await import('node:fs/promises');
      await mkdir(join(sandbox.workdir, 'dir'));
      await put('f.txt', 'x\n');
      execFileSync('mkfifo', [join(sandbox.workdir, 'fifo')]);
      await symlink('loop2', join(sandbox.workdir, 'loop1'));
      await symlink('loop1', join(sandbox.workdir, 'loop2'));
      const change = (name: string) => `--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-x\n+y\n`;
      const cases: [string, string][] = [
        [change('dir'), 'is_directory'],
        [change('f.txt/x'), 'not_directory'],
        [change('fifo'), 'refused'],
        [change('loop1'), 'refused'],
        [change('y'.repeat(300)), 'invalid_arguments'],
        [`--- /dev/null\n+++ b/${'y'.repeat(300)}\n@@ -0,0 +1 @@\n+y\n`, 'invalid_arguments'],
      ];
      for (const [diff, code] of cases) {
        const error = await toolError(tool().call({ diff }));
        expect(error.code, diff.slice(0, 40)).toBe(code);
      }
      expect(await get('f.txt')).toBe('x\n');
    });
  });
});
