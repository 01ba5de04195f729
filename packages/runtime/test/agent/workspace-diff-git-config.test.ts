/**
 * D01: the patch workspaceDiff records applies with `git apply -p1` whatever the repository's or the
 * user's global git config says (global config through a temp HOME, which the local adapter passes on).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceDiff } from '../../src/agent/workspace-diff.js';
import {
  applyToCleanClone,
  hostileGitConfigs,
  useTempHome,
  writeGitConfig,
} from '../../../tools/test/git/hostile-git-config.js';

const tempHome = useTempHome();

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

/** The D01 repository: `src/old.py` committed with `x = 1` between two lines, then `x = 2`, plus a new non-ASCII file. */
async function d01Repo(): Promise<SandboxHandle> {
  const handle = await createLocalSandboxAdapter().create();
  handles.push(handle);
  const { client } = handle;
  await client.writeFile('src/old.py', 'a = 0\nx = 1\nb = 0\n');
  const init = await client.exec(
    'git init -q && git add -A && git -c user.name=t -c user.email=t@e.x commit -qm base',
  );
  expect(init.exitCode).toBe(0);
  await client.writeFile('src/old.py', 'a = 0\nx = 2\nb = 0\n');
  await client.writeFile('src/café.py', 'y = 1\n');
  return handle;
}

describe('workspaceDiff', () => {
  describe.each(['repository', 'global'] as const)('when the %s git config is hostile', (where) => {
    it.each(hostileGitConfigs())(
      '$name: records a patch with a/ b/ prefixes that applies with -p1',
      async ({ entries }) => {
        const { client, workdir } = await d01Repo();
        writeGitConfig(
          where === 'repository' ? join(workdir, '.git', 'config') : join(tempHome(), '.gitconfig'),
          entries,
        );
        try {
          const { diff, error } = await workspaceDiff(client, workdir);
          expect(error).toBeUndefined();
          expect(diff).toContain('diff --git a/src/old.py b/src/old.py');
          expect(diff).not.toContain('\u001b[');
          const applied = applyToCleanClone(workdir, diff);
          expect(readFileSync(join(applied, 'src/old.py'), 'utf8')).toBe('a = 0\nx = 2\nb = 0\n');
          expect(readFileSync(join(applied, 'src/café.py'), 'utf8')).toBe('y = 1\n');
        } finally {
          await client.exec(`rm -f ${JSON.stringify(join(tempHome(), '.gitconfig'))}`);
        }
      },
    );
  });
});
