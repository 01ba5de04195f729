/**
 * D01 for git_diff: its diff text and file list do not depend on the repository's or the user's
 * global git config (global config through a temp HOME, which the local adapter passes on).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitDiffTool, type GitDiffOutput } from '../../src/git/git-diff.js';
import { applyToCleanClone, hostileGitConfigs, useTempHome, writeGitConfig } from './hostile-git-config.js';

const tempHome = useTempHome();

let sandbox: SandboxHandle;
beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e.x', ...args], {
      cwd: sandbox.workdir,
      env,
    });
  writeFileSync(join(sandbox.workdir, 'old.py'), 'a = 0\nx = 1\nb = 0\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeFileSync(join(sandbox.workdir, 'old.py'), 'a = 0\nx = 2\nb = 0\n');
});
afterEach(async () => {
  rmSync(join(tempHome(), '.gitconfig'), { force: true });
  await sandbox.destroy();
});

describe('createGitDiffTool', () => {
  describe.each(['repository', 'global'] as const)('when the %s git config is hostile', (where) => {
    it.each(hostileGitConfigs())(
      'D01 $name: returns a/ b/ headers and counts, and the text applies with -p1',
      async ({ entries }) => {
        writeGitConfig(
          where === 'repository' ? join(sandbox.workdir, '.git', 'config') : join(tempHome(), '.gitconfig'),
          entries,
        );
        const result = (await createGitDiffTool(sandbox.client, { root: sandbox.workdir }).call(
          {},
        )) as GitDiffOutput;
        expect(result.diff).toContain('diff --git a/old.py b/old.py\n');
        expect(result.diff).toContain('--- a/old.py\n+++ b/old.py\n');
        expect(result.files).toEqual([
          { path: 'old.py', status: 'modified', additions: 1, deletions: 1, binary: false },
        ]);
        const applied = applyToCleanClone(sandbox.workdir, result.diff);
        expect(readFileSync(join(applied, 'old.py'), 'utf8')).toBe('a = 0\nx = 2\nb = 0\n');
      },
    );
  });
});
