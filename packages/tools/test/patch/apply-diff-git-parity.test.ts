/**
 * D11 and its kind: apply_diff applies what `git apply` applies when a hunk's context is exact and
 * matches in exactly one place (asymmetric context included, which GNU patch at fuzz 0 refuses),
 * still refuses real mismatches, never contradicts itself, and follows a symlink in the workspace.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplyDiffTool } from '../../src/patch/apply-diff.js';
import { createEditFileTool } from '../../src/edit/edit-file.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(() => sandbox.destroy());

const applyDiff = () => createApplyDiffTool(sandbox.client, { root: sandbox.workdir });

/** The refusal of `diff` as a ToolError (fails the test when it applies). */
async function refusal(diff: string): Promise<ToolError> {
  const error = await applyDiff()
    .call({ diff })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

/** `git apply` of `diff` to `content` (named m.py) in a fresh directory: the result, or `null` when git refuses. */
function gitApply(content: string, diff: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'sandkit-gitapply-'));
  try {
    writeFileSync(join(dir, 'm.py'), content);
    writeFileSync(join(dir, 'p.diff'), diff);
    const env = { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
    execFileSync('git', ['apply', '-p1', 'p.diff'], { cwd: dir, env, stdio: 'pipe' });
    return readFileSync(join(dir, 'm.py'), 'utf8');
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mPy = 'def f():\n    a = 1\n    b = 2\n    return a + b\n\n\ndef g():\n    return 0\n';
const d11Diff =
  '--- a/m.py\n+++ b/m.py\n@@ -1,4 +1,4 @@\n def f():\n     a = 1\n-    b = 2\n+    b = 3\n     return a + b\n';

describe('createApplyDiffTool', () => {
  describe('when a hunk has more leading than trailing context and matches exactly once', () => {
    it('D11: applies it as git apply does (b = 3)', async () => {
      await writeFile(join(sandbox.workdir, 'm.py'), mPy);
      expect(gitApply(mPy, d11Diff)).toBe(mPy.replace('b = 2', 'b = 3'));
      const result = await applyDiff().call({ diff: d11Diff });
      expect(result).toMatchObject({ files: [{ path: 'm.py', status: 'modified' }], conflicts: [] });
      expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(mPy.replace('b = 2', 'b = 3'));
    });

    it('D11: applies one with more trailing than leading context in the middle of the file', async () => {
      const file = 'one\ntwo\nthree\nfour\nfive\nsix\n';
      const diff = '--- a/m.py\n+++ b/m.py\n@@ -3,4 +3,4 @@\n three\n-four\n+FOUR\n five\n six\n';
      await writeFile(join(sandbox.workdir, 'm.py'), file);
      expect(gitApply(file, diff)).toBe(file.replace('four', 'FOUR'));
      await applyDiff().call({ diff });
      expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(file.replace('four', 'FOUR'));
    });
  });

  describe('when an asymmetric hunk matches exactly in two places', () => {
    it('D11: refuses it and says it matches exactly in both places, never that lines differ', async () => {
      const file = 'x\na\nb\nc\ny\nx\na\nb\nc\nz\n';
      await writeFile(join(sandbox.workdir, 'm.py'), file);
      const error = await refusal('--- a/m.py\n+++ b/m.py\n@@ -2,3 +2,3 @@\n x\n a\n-b\n+B\n c\n');
      expect(error.message).toContain('matches the file exactly at 2 places (lines 1, 6)');
      expect(error.message).not.toMatch(/(\d+) of \1 lines equal/);
      expect(error.message).not.toContain('rebuild');
      expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(file);
    });
  });

  describe('when an asymmetric hunk only inserts lines (context on one side)', () => {
    // The hunk trimmed for patch has no old line left: its old start must be the line the new
    // lines go after (`-0,0` before line 1). It was the first context line's number, so each of
    // these landed one line too low with exact: true.
    // git apply refuses a hunk without trailing context anywhere but at the end of the file (its
    // match_end rule); apply_diff puts those lines right after their context, where the hunk says.
    it.each([
      ['before line 1', 'b\nc\n', '@@ -1,2 +1,3 @@\n+a\n b\n c\n', 'a\nb\nc\n', true],
      [
        'before a middle line',
        'p\nb\nc\nx\ny\n',
        '@@ -2,2 +2,3 @@\n+a\n b\n c\n',
        'p\na\nb\nc\nx\ny\n',
        true,
      ],
      [
        'after the context at the top',
        'b\nc\nx\ny\n',
        '@@ -1,2 +1,3 @@\n b\n c\n+d\n',
        'b\nc\nd\nx\ny\n',
        false,
      ],
      [
        'after the context in the middle',
        'p\nb\nc\nx\ny\n',
        '@@ -2,2 +2,3 @@\n b\n c\n+d\n',
        'p\nb\nc\nd\nx\ny\n',
        false,
      ],
      ['at the end of the file', 'b\nc\n', '@@ -1,2 +1,3 @@\n b\n c\n+d\n', 'b\nc\nd\n', true],
    ])('inserts %s where the hunk says (git apply agrees: %s)', async (_where, file, hunk, expected, git) => {
      const diff = `--- a/m.py\n+++ b/m.py\n${hunk}`;
      expect(gitApply(file, diff)).toBe(git ? expected : null);
      await writeFile(join(sandbox.workdir, 'm.py'), file);
      const result = await applyDiff().call({ diff });
      expect(result).toMatchObject({ hunksApplied: 1, exact: true });
      expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(expected);
    });

    it('agrees with git apply on random insert-only hunks with one-sided context (property)', async () => {
      const line = fc.constantFrom('a', 'b', 'c', 'x = 1', 'return x', '', 'def f():');
      await fc.assert(
        fc.asyncProperty(
          fc.array(line, { minLength: 1, maxLength: 8 }),
          fc.nat(),
          fc.integer({ min: 1, max: 3 }),
          fc.boolean(),
          fc.array(fc.constantFrom('NEW1', 'NEW2'), { minLength: 1, maxLength: 2 }),
          async (lines, at, width, contextAfter, added) => {
            const start = at % lines.length; // 0-based first context line
            const context = lines.slice(start, start + width);
            const body = contextAfter
              ? [...added.map((l) => `+${l}`), ...context.map((l) => ` ${l}`)]
              : [...context.map((l) => ` ${l}`), ...added.map((l) => `+${l}`)];
            const diff = `--- a/m.py\n+++ b/m.py\n@@ -${start + 1},${context.length} +${start + 1},${context.length + added.length} @@\n${body.join('\n')}\n`;
            const file = `${lines.join('\n')}\n`;
            const byGit = gitApply(file, diff);
            await writeFile(join(sandbox.workdir, 'm.py'), file);
            const outcome = await applyDiff()
              .call({ diff })
              .then(
                () => 'applied',
                () => 'refused',
              );
            const now = await readFile(join(sandbox.workdir, 'm.py'), 'utf8');
            if (outcome === 'applied' && byGit !== null) expect(now).toBe(byGit);
            if (outcome === 'refused') expect(now).toBe(file);
          },
        ),
        { numRuns: 25 },
      );
    }, 120_000);
  });

  describe('when a hunk line really differs from the file', () => {
    it('D11: still refuses it, naming the differing line', async () => {
      await writeFile(join(sandbox.workdir, 'm.py'), mPy);
      const error = await refusal(d11Diff.replace('     a = 1\n', '     a = 9\n'));
      expect(error.message).toContain('`    a = 9` does not match any line of m.py');
      expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(mPy);
    });
  });

  describe('when the file is a symlink inside the workspace', () => {
    it('D11: changes the file it points to and keeps the link, as edit_file does', async () => {
      await writeFile(join(sandbox.workdir, 'real.py'), mPy);
      await symlink('real.py', join(sandbox.workdir, 'link.py'));
      await applyDiff().call({ diff: d11Diff.replaceAll('m.py', 'link.py') });
      expect(await readFile(join(sandbox.workdir, 'real.py'), 'utf8')).toBe(mPy.replace('b = 2', 'b = 3'));
      expect((await lstat(join(sandbox.workdir, 'link.py'))).isSymbolicLink()).toBe(true);
      await createEditFileTool(sandbox.client, { root: sandbox.workdir }).call({
        path: 'link.py',
        edits: [{ oldText: 'b = 3', newText: 'b = 4' }],
      });
      expect(await readFile(join(sandbox.workdir, 'real.py'), 'utf8')).toBe(mPy.replace('b = 2', 'b = 4'));
    });
  });
});

const line = fc.constantFrom('a', 'b', 'c', 'x = 1', 'return x', '', '  }');

/** A file, and one hunk on it whose old side (1-3 lines of context each side, any mix) matches exactly once. */
const fileAndHunk = fc
  .record({
    lines: fc.array(line, { minLength: 3, maxLength: 16 }),
    start: fc.nat(),
    leading: fc.integer({ min: 1, max: 3 }),
    removed: fc.integer({ min: 0, max: 2 }),
    trailing: fc.integer({ min: 1, max: 3 }),
    added: fc.array(fc.constantFrom('NEW', 'b', 'y = 2', ''), { maxLength: 3 }),
  })
  .filter(
    ({ lines, leading, removed, trailing, added }) =>
      leading + removed + trailing <= lines.length && removed + added.length > 0,
  )
  .map(({ lines, start, leading, removed, trailing, added }) => {
    const size = leading + removed + trailing;
    const at = start % (lines.length - size + 1);
    const old = lines.slice(at, at + size);
    const body = [
      ...old.slice(0, leading).map((l) => ` ${l}`),
      ...old.slice(leading, leading + removed).map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...old.slice(leading + removed).map((l) => ` ${l}`),
    ];
    const header = `@@ -${at + 1},${size} +${at + 1},${size - removed + added.length} @@`;
    const matches = lines.filter(
      (_, i) => old.every((l, k) => lines[i + k] === l) && i + size <= lines.length,
    ).length;
    return {
      content: `${lines.join('\n')}\n`,
      diff: `--- a/m.py\n+++ b/m.py\n${header}\n${body.join('\n')}\n`,
      matches,
    };
  })
  .filter(({ matches }) => matches === 1);

describe('createApplyDiffTool (property)', () => {
  it('D11: for exact hunks that match once, gives what git apply gives', async () => {
    await fc.assert(
      fc.asyncProperty(fileAndHunk, async ({ content, diff }) => {
        const expected = gitApply(content, diff);
        expect(expected).not.toBeNull();
        await writeFile(join(sandbox.workdir, 'm.py'), content);
        await applyDiff().call({ diff });
        expect(await readFile(join(sandbox.workdir, 'm.py'), 'utf8')).toBe(expected);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
