import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceDiff } from '../../src/agent/workspace-diff.js';

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

async function sandbox(): Promise<SandboxHandle> {
  const handle = await createLocalSandboxAdapter().create();
  handles.push(handle);
  return handle;
}

describe('workspaceDiff', () => {
  it('includes modified and new files, not ignored ones, and leaves the repo index untouched', async () => {
    const { client, workdir } = await sandbox();
    await client.writeFile('kept.txt', 'one\n');
    await client.writeFile('.gitignore', 'build/\n');
    const init = await client.exec(
      'git init -q && git add -A && git -c user.name=t -c user.email=t@e.x commit -qm base',
    );
    expect(init.exitCode).toBe(0);
    await client.writeFile('kept.txt', 'two\n');
    await client.writeFile('café new.txt', 'fresh\n');
    await client.writeFile('build/out.txt', 'ignored\n');
    const { diff } = await workspaceDiff(client, workdir);
    expect(diff).toContain('-one\n+two');
    expect(diff).toContain('+++ "b/caf\\303\\251 new.txt"');
    expect(diff).not.toContain('build/out.txt');
    const status = await client.exec('git status --porcelain');
    expect(status.stdout).toContain('?? ');
  });

  it('diffs against the empty tree in a repo without commits, and returns "" outside a repo', async () => {
    const repo = await sandbox();
    await repo.client.writeFile('a.txt', 'a\n');
    expect((await repo.client.exec('git init -q')).exitCode).toBe(0);
    expect((await workspaceDiff(repo.client, repo.workdir)).diff).toContain('+++ b/a.txt');
    const plain = await sandbox();
    await plain.client.writeFile('a.txt', 'a\n');
    expect(await workspaceDiff(plain.client, plain.workdir)).toEqual({ diff: '' });
  });
});
