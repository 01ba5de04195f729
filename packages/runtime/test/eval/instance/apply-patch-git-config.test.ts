/**
 * D01 in the harness: the sandbox-side `git apply` of a patch does not depend on the user's global
 * git config (through a temp HOME, which the local adapter passes on).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempHome } from '../../../../tools/test/git/hostile-git-config.js';
import { applyPatch } from '../../../src/eval/instance/apply-patch.js';
import { EvalLog } from '../../../src/eval/instance/eval-log.js';

const tempHome = useTempHome();

let sandbox: SandboxHandle;
let repo: string;
beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  repo = join(sandbox.workdir, 'repo');
  await mkdir(repo);
  await writeFile(join(repo, 'm.py'), 'a = 1\nb = 2\nc = 3\n');
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'],
  ]) {
    execFileSync('git', args, { cwd: repo, env });
  }
});
afterEach(async () => {
  await rm(join(tempHome(), '.gitconfig'), { force: true });
  await sandbox.destroy();
});

describe('applyPatch', () => {
  describe('when the global git config sets apply.whitespace=error', () => {
    it('D01: still applies a patch whose new line ends in a space with git apply', async () => {
      execFileSync('git', ['config', '--file', join(tempHome(), '.gitconfig'), 'apply.whitespace', 'error']);
      const patch = '--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 3 \n c = 3\n';
      const result = await applyPatch({
        client: sandbox.client,
        log: new EvalLog(),
        patch,
        repoDir: repo,
        patchPath: `${sandbox.workdir}/model.patch`,
        label: 'model patch',
        timeoutMs: 20_000,
      });
      expect(result).toMatchObject({ applied: true, method: 'git apply' });
      expect(await readFile(join(repo, 'm.py'), 'utf8')).toBe('a = 1\nb = 3 \nc = 3\n');
    });
  });
});
