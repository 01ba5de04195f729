import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/eval/instance/apply-patch.js';
import { EvalLog } from '../../../src/eval/instance/eval-log.js';

let sandbox: SandboxHandle;
let repo: string;

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

async function commitFiles(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(repo, name), text);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
}

function apply(patch: string, log = new EvalLog()) {
  return applyPatch({
    client: sandbox.client,
    log,
    patch,
    repoDir: repo,
    patchPath: `${sandbox.workdir}/model.patch`,
    label: 'model patch',
    timeoutMs: 20_000,
  });
}

beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  repo = join(sandbox.workdir, 'repo');
  await mkdir(repo);
});
afterEach(async () => {
  await sandbox.destroy();
});

describe('applyPatch', () => {
  describe('when a hunk only fits with fuzz (B11)', () => {
    const mPy =
      'def a():\n    x = 1\n    y = 2\n    return x\n\ndef b(self):\n    x = 1\n    y = 2\n    return x\n';
    const diff =
      '--- a/m.py\n+++ b/m.py\n@@ -1,4 +1,5 @@\n def b():\n     x = 1\n+    z = 3\n     y = 2\n     return x\n';

    it('B11: rejects the patch instead of fuzzing it into the look-alike function', async () => {
      await commitFiles({ 'm.py': mPy });
      const result = await apply(diff);
      expect(result).toMatchObject({ applied: false, method: null });
      expect(result.failure).toContain('patch --fuzz=0');
      expect(await readFile(join(repo, 'm.py'), 'utf8')).toBe(mPy);
    });

    it('B11: the same diff does go into a() with fuzz, so the refusal is what protects it', async () => {
      await commitFiles({ 'm.py': mPy });
      await writeFile(join(sandbox.workdir, 'p.diff'), diff);
      const out = execFileSync('patch', ['--batch', '--fuzz=5', '-p1', '--dry-run', '-i', '../p.diff'], {
        cwd: repo,
        encoding: 'utf8',
      });
      expect(out).toMatch(/with fuzz/);
    });
  });

  describe('when file names are not ASCII (C09)', () => {
    it('C09: applies git-quoted names and reports them as real UTF-8 strings', async () => {
      await commitFiles({ 'café.txt': 'one\n', 'plain.txt': 'p\n' });
      await writeFile(join(repo, 'café.txt'), 'one\ntwo\n');
      await writeFile(join(repo, 'say "hi".txt'), 'hi\n');
      git('add', '-A');
      const patch = git('diff', '--cached');
      expect(patch).toContain('"a/caf\\303\\251.txt"');
      expect(patch).toContain('"b/say \\"hi\\".txt"');
      git('reset', '-q', '--hard');
      const result = await apply(patch);
      expect(result).toMatchObject({
        applied: true,
        method: 'git apply',
        files: ['café.txt', 'say "hi".txt'],
      });
      expect(await readFile(join(repo, 'café.txt'), 'utf8')).toBe('one\ntwo\n');
      expect(await readFile(join(repo, 'say "hi".txt'), 'utf8')).toBe('hi\n');
    });
  });

  describe('when a section is a binary change without data', () => {
    it('skips and reports that file and applies the rest', async () => {
      await commitFiles({ 'a.txt': 'a\n' });
      const patch = [
        'diff --git a/logo.png b/logo.png',
        'index 1111111..2222222 100644',
        'Binary files a/logo.png and b/logo.png differ',
        'diff --git a/a.txt b/a.txt',
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1 +1,2 @@',
        ' a',
        '+b',
        '',
      ].join('\n');
      const log = new EvalLog();
      const result = await apply(patch, log);
      expect(result).toMatchObject({
        applied: true,
        method: 'git apply',
        skippedBinary: ['logo.png'],
        files: ['a.txt'],
      });
      expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('a\nb\n');
      expect(log.text()).toContain('skipped binary file without patch data: logo.png');
    });
  });

  describe('when git apply cannot read the patch', () => {
    it('falls back to patch --fuzz=0 and records that patch applied it', async () => {
      await commitFiles({ 'a.txt': 'one\ntwo\nthree\n' });
      // a context diff (diff -c): GNU patch reads it, git apply does not
      const patch = [
        '*** a/a.txt',
        '--- b/a.txt',
        '***************',
        '*** 1,3 ****',
        '  one',
        '! two',
        '  three',
        '--- 1,3 ----',
        '  one',
        '! TWO',
        '  three',
        '',
      ].join('\n');
      const result = await apply(patch);
      expect(result).toMatchObject({ applied: true, method: 'patch' });
      expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    });
  });

  describe('when the patch does not apply at all', () => {
    it('returns applied false with both programs’ output and leaves the tree untouched', async () => {
      await commitFiles({ 'a.txt': 'one\n' });
      const result = await apply('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-zero\n+ZERO\n');
      expect(result.applied).toBe(false);
      expect(result.failure).toMatch(
        /error: patch failed: a\.txt:1[\s\S]*::sandkit-fallback patch --fuzz=0[\s\S]*FAILED/,
      );
      expect(git('status', '--porcelain')).toBe('');
    });
  });
});
