import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitDiffTool, type GitDiffOutput } from '../../src/git/git-diff.js';
import { createApplyDiffTool } from '../../src/patch/apply-diff.js';
import { sandboxGit } from './sandbox-git.js';

let sandbox: SandboxHandle;
beforeEach(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterEach(() => sandbox.destroy());

/** Runs git in the sandbox's workdir (see sandboxGit); returns its stdout. */
function git(...args: string[]): Promise<string> {
  return sandboxGit(sandbox.client, args);
}

async function put(name: string, content: string): Promise<void> {
  await mkdir(join(sandbox.workdir, name, '..'), { recursive: true });
  await writeFile(join(sandbox.workdir, name), content);
}

/** A repository with the given files committed. */
async function repo(files: Record<string, string>): Promise<void> {
  await git('init', '-q');
  for (const [name, content] of Object.entries(files)) await put(name, content);
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial');
}

const diffTool = () => createGitDiffTool(sandbox.client, { root: sandbox.workdir });
const call = async (input: Record<string, unknown> = {}) => (await diffTool().call(input)) as GitDiffOutput;

describe('createGitDiffTool', () => {
  it('B28: keeps counts of renamed files under the new path, with the old path', async () => {
    await repo({ 'before.txt': 'one\n', 'src/old.ts': 'a\nb\nc\nd\ne\nf\ng\nh\n' });
    await git('mv', 'before.txt', 'after.txt');
    await appendFile(join(sandbox.workdir, 'after.txt'), 'two\n');
    await git('mv', 'src/old.ts', 'src/new.ts');
    await put('src/new.ts', 'a\nb\nc\nd\ne\nf\ng\nH\nx\ny\n');
    await git('add', '-A');
    const result = await call({ base: 'HEAD' });
    expect(result.files).toEqual([
      {
        path: 'after.txt',
        oldPath: 'before.txt',
        status: 'renamed',
        additions: 1,
        deletions: 0,
        binary: false,
      },
      {
        path: 'src/new.ts',
        oldPath: 'src/old.ts',
        status: 'renamed',
        additions: 3,
        deletions: 1,
        binary: false,
      },
    ]);
    expect(result.diff).toContain('rename from src/old.ts');
  });

  it('B28: reports a binary file with binary: true and -1 counts', async () => {
    await repo({ 'img.bin': '\0\x01\x02' });
    await put('img.bin', '\0\x01\x03\x04');
    const result = await call();
    expect(result.files).toEqual([
      { path: 'img.bin', status: 'modified', additions: -1, deletions: -1, binary: true },
    ]);
  });

  it('C09: returns non-ASCII and quote-holding names as real strings in files and unquotes them in status', async () => {
    await repo({ 'café.txt': 'x\n', 'plain.txt': 'p\n' });
    await appendFile(join(sandbox.workdir, 'café.txt'), 'y\n');
    await put('say "hi".txt', 'hello\n');
    await git('add', 'say "hi".txt');
    const unstaged = await call();
    expect(unstaged.files).toEqual([
      { path: 'café.txt', status: 'modified', additions: 1, deletions: 0, binary: false },
    ]);
    expect(unstaged.diff).toContain('diff --git a/café.txt b/café.txt');
    const staged = await call({ staged: true });
    expect(staged.files).toEqual([
      { path: 'say "hi".txt', status: 'added', additions: 1, deletions: 0, binary: false },
    ]);
    expect(staged.diff).toContain('diff --git "a/say \\"hi\\".txt" "b/say \\"hi\\".txt"');
    const both = await call({ base: 'HEAD' });
    expect(both.files.map((file) => file.path)).toEqual(['café.txt', 'say "hi".txt']);
  });

  it('C11: a CRLF warning on stderr is a warning, not a failure, and is not in the diff text', async () => {
    await repo({ '.gitattributes': '* text eol=crlf\n', 'x.txt': 'a\n' });
    await appendFile(join(sandbox.workdir, 'x.txt'), 'b\n');
    const result = await call();
    expect(result.files).toEqual([
      { path: 'x.txt', status: 'modified', additions: 1, deletions: 0, binary: false },
    ]);
    expect(result.warnings?.join('\n')).toContain('LF will be replaced by CRLF');
    expect(result.diff).not.toContain('warning');
  });

  it('B10: after apply_diff on files without a final newline, shows exactly one changed line each', async () => {
    await repo({ 'data.txt': 'line1\nline2\nline3', 'x.json': '{"a":1}' });
    await createApplyDiffTool(sandbox.client, { root: sandbox.workdir }).call({
      diff:
        '--- a/data.txt\n+++ b/data.txt\n@@ -1,2 +1,2 @@\n-line1\n+LINE1\n line2\n' +
        '--- a/x.json\n+++ b/x.json\n@@ -1 +1 @@\n-{"a":1}\n\\ No newline at end of file\n+{"a":2}\n\\ No newline at end of file\n',
    });
    const result = await call();
    expect(result.files.map(({ path, additions, deletions }) => [path, additions, deletions])).toEqual([
      ['data.txt', 1, 1],
      ['x.json', 1, 1],
    ]);
  });

  it('lists untracked files separately without staging them, and limits the diff to paths', async () => {
    await repo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await appendFile(join(sandbox.workdir, 'a.txt'), 'a2\n');
    await appendFile(join(sandbox.workdir, 'b.txt'), 'b2\n');
    await put('new file.txt', 'n\n');
    const result = await call({ paths: ['b.txt'] });
    expect(result.files.map((file) => file.path)).toEqual(['b.txt']);
    expect(result.untracked).toBeUndefined();
    const all = await call();
    expect(all.untracked).toEqual(['new file.txt']);
    expect(await git('status', '--porcelain')).toContain('?? "new file.txt"');
  });

  it('cuts the diff text at maxOutputBytes and keeps the file list whole', async () => {
    await repo({ 'big.txt': '' });
    await put('big.txt', 'x'.repeat(50).concat('\n').repeat(200));
    const result = (await createGitDiffTool(sandbox.client, {
      root: sandbox.workdir,
      maxOutputBytes: 2048,
    }).call({})) as GitDiffOutput;
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.diff)).toBeLessThanOrEqual(2048);
    expect(result.files).toEqual([
      { path: 'big.txt', status: 'modified', additions: 200, deletions: 0, binary: false },
    ]);
  });

  it('throws command_failed with git reason outside a repository and for an unknown base', async () => {
    const notRepo = await diffTool()
      .call({})
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(notRepo) && notRepo.code).toBe('command_failed');
    expect((notRepo as Error).message).toMatch(/not a git repository/i);
    await repo({ 'a.txt': 'a\n' });
    const badBase = await diffTool()
      .call({ base: 'no-such-branch' })
      .catch((e: unknown) => e);
    expect((badBase as Error).message).toMatch(/unknown revision|bad revision/);
  });

  it('answers a cwd that does not exist or is a file with not_found, not a thrown cwd_not_found SandboxError', async () => {
    await repo({ 'a.txt': 'a\n' });
    for (const cwd of ['missing', 'a.txt']) {
      const error = await diffTool()
        .call({ cwd })
        .catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && error.code).toBe('not_found');
      expect((error as Error).message).toContain(`cwd "${cwd}"`);
    }
  });
});
