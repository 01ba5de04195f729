/**
 * The in-place probe runs on every instance of a run; on the local adapter its `git config
 * --global` is the host user's own file, so it must neither write it when there is no repository
 * nor grow it on every run (it once added a `safe.directory` line per instance).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempHome } from '../../../../tools/test/git/hostile-git-config.js';
import { inPlaceStep, noTreeMarker } from '../../../src/eval/instance/eval-script.js';

const tempHome = useTempHome();

let sandbox: SandboxHandle;
let repo: string;
let base: string;
beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  repo = join(sandbox.workdir, 'testbed');
  await mkdir(repo);
  await writeFile(join(repo, 'm.py'), 'a = 1\n');
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  execFileSync('git', ['add', '-A'], { cwd: repo, env });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], {
    cwd: repo,
    env,
  });
  base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, env, encoding: 'utf8' }).trim();
  await rm(join(tempHome(), '.gitconfig'), { force: true });
});
afterEach(async () => {
  await sandbox.destroy();
});

async function probe(dir: string) {
  const step = inPlaceStep(dir, base, sandbox.workdir);
  return sandbox.client.exec(step.command, { cwd: step.cwd });
}

async function safeDirectories(): Promise<string[]> {
  const text = await readFile(join(tempHome(), '.gitconfig'), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.includes('directory ='));
}

describe('the in-place probe and the global git config', () => {
  it('adds the tree to safe.directory once, however many instances probe it', async () => {
    for (let n = 0; n < 3; n++) {
      const result = await probe(repo);
      expect(result.stdout).toContain('evaluating in place');
      expect(result.exitCode).toBe(0);
    }
    expect(await safeDirectories()).toEqual([`\tdirectory = ${repo}`]);
  });

  it('writes no git config when there is no repository at the path', async () => {
    const result = await probe(join(sandbox.workdir, 'no-such-tree'));
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toContain(noTreeMarker);
    expect(await safeDirectories()).toEqual([]);
  });
});
