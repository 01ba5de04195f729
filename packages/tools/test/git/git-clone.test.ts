import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitCloneTool, defaultCloneDirectory } from '../../src/git/git-clone.js';
import { sandboxGit } from './sandbox-git.js';

let sandbox: SandboxHandle;
let sha: string;

/** Runs git in `cwd` in the sandbox (see sandboxGit); returns its trimmed stdout. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await sandboxGit(sandbox.client, args, cwd)).trim();
}

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  const origin = join(sandbox.workdir, 'origin');
  await mkdir(origin);
  await git(origin, 'init', '-q');
  await writeFile(join(origin, 'a.txt'), 'one\n');
  await git(origin, 'add', 'a.txt');
  await git(origin, 'commit', '-q', '-m', 'one');
  await writeFile(join(origin, 'a.txt'), 'two\n');
  await git(origin, 'commit', '-q', '-am', 'two');
  await git(origin, 'branch', 'feature');
  await git(origin, 'tag', 'v1', 'HEAD~1');
  sha = await git(origin, 'rev-parse', 'HEAD');
});
afterAll(() => sandbox.destroy());

const tool = () => createGitCloneTool(sandbox.client, { root: sandbox.workdir });

describe('createGitCloneTool', () => {
  it('clones a local path and reports the commit, branch and path', async () => {
    const result = await tool().call({ url: './origin', dest: 'copy1' });
    expect(result).toEqual({ commitSha: sha, branch: 'main', path: 'copy1' });
  });

  it('clones a file:// URL shallowly into the default directory, on a given branch', async () => {
    const result = await tool().call({
      url: `file://${sandbox.workdir}/origin/`,
      depth: 1,
      branch: 'feature',
      dest: 'shallow',
    });
    expect(result).toMatchObject({ commitSha: sha, branch: 'feature', path: 'shallow' });
    expect(await git(join(sandbox.workdir, 'shallow'), 'rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('reports a detached HEAD (tag checkout) as branch null', async () => {
    const result = await tool().call({ url: './origin', branch: 'v1', dest: 'tagged' });
    expect(result.branch).toBeNull();
    expect(result.commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(result.commitSha).not.toBe(sha);
  });

  it('passes on git warnings of a successful clone (depth ignored for a local path)', async () => {
    const result = await tool().call({ url: './origin', depth: 1, dest: 'warned' });
    expect(result.warnings?.join('\n')).toMatch(/--depth is ignored/);
  });

  it('throws command_failed with git reason for a missing repository, an existing dest and an unknown branch', async () => {
    const cases = [
      [{ url: './no-such-repo', dest: 'x1' }, /does not exist|not appear to be a git repository/],
      [{ url: './origin', dest: 'copy1' }, /already exists and is not an empty directory/],
      [{ url: './origin', dest: 'x2', branch: 'nope' }, /Remote branch nope not found/],
    ] as const;
    for (const [input, reason] of cases) {
      const error = await tool()
        .call(input)
        .catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && error.code).toBe('command_failed');
      expect((error as Error).message).toMatch(reason);
    }
  });

  it('refuses a dest outside the root and never prompts for credentials', async () => {
    const outside = await tool()
      .call({ url: './origin', dest: '../escape' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(outside) && outside.code).toBe('outside_root');
    const ext = await tool()
      .call({ url: 'ext::sh -c touch% /tmp/sandkit-ext-pwned', dest: 'ext' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(ext) && ext.code).toBe('command_failed');
  });
});

describe('defaultCloneDirectory', () => {
  it.each([
    ['https://github.com/org/repo.git', 'repo'],
    ['https://github.com/org/repo', 'repo'],
    ['git@github.com:org/repo.git', 'repo'],
    ['file:///srv/git/project/.git', 'project'],
    ['../local/', 'local'],
    ['/', 'repo'],
  ])('%s → %s', (url, expected) => {
    expect(defaultCloneDirectory(url)).toBe(expected);
  });
});
