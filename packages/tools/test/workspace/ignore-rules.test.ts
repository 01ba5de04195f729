/**
 * D09 and its kind: search_files, find_files and list_files agree on what exists. Hidden files
 * count, `.git/` never does, .gitignore files (nested ones too) are honoured inside and outside a
 * git repository, and a path a rule skipped is named with the rule.
 */
import { execFileSync } from 'node:child_process';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/create-coding-tools.js';

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

interface Ignored {
  count: number;
  paths: Array<{ path: string; rule: string }>;
}

/** The D09 tree (not a repository unless `repo`), plus a nested ignore file. */
async function d09Tree(repo: boolean) {
  const sandbox = await createLocalSandboxAdapter().create();
  handles.push(sandbox);
  const { client } = sandbox;
  await client.writeFile('.github/ci.yml', 'needle in hidden\n');
  await client.writeFile('a.txt', 'needle visible\n');
  await client.writeFile('.gitignore', 'build/\n');
  await client.writeFile('build/out.txt', 'needle in build\n');
  await client.writeFile('sub/.gitignore', '*.log\n');
  await client.writeFile('sub/x.log', 'needle in log\n');
  await client.writeFile('sub/y.txt', 'needle in sub\n');
  if (repo) {
    execFileSync('git', ['init', '-q'], {
      cwd: sandbox.workdir,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
    await client.writeFile('.git/needle.txt', 'needle in .git\n');
  }
  const tools = createCodingTools(client, { root: sandbox.workdir });
  const call = async (name: string, input: Record<string, unknown>) =>
    (await tools.find((tool) => tool.name === name)!.call(input)) as Record<string, unknown> & {
      ignored?: Ignored;
    };
  return { call, client };
}

const expectedFiles = ['.github/ci.yml', '.gitignore', 'a.txt', 'sub/.gitignore', 'sub/y.txt'];
const expectedIgnored = [
  { path: 'build', rule: '.gitignore:1:build/' },
  { path: 'sub/x.log', rule: 'sub/.gitignore:1:*.log' },
];

describe.each([
  ['outside a git repository', false],
  ['inside a git repository', true],
])('search_files, find_files and list_files %s', (_, repo) => {
  it('D09: search_files finds the hidden file, not the ignored one, and names the rule that skipped it', async () => {
    const { call } = await d09Tree(repo);
    const result = await call('search_files', { pattern: 'needle' });
    const matches = result.matches as Array<{ path: string }>;
    expect(matches.map((match) => match.path)).toEqual(['.github/ci.yml', 'a.txt', 'sub/y.txt']);
    expect(result.ignored?.paths).toEqual([
      { path: 'build/out.txt', rule: '.gitignore:1:build/' },
      { path: 'sub/x.log', rule: 'sub/.gitignore:1:*.log' },
    ]);
  });

  it('D09: the three tools agree on the files, and none lists .git', async () => {
    const { call } = await d09Tree(repo);
    const found = (await call('find_files', { pattern: '**' })).files as string[];
    const listed = (
      (await call('list_files', { recursive: true })).entries as Array<{ path: string; kind: string }>
    )
      .filter((entry) => entry.kind === 'file')
      .map((entry) => entry.path);
    const searched = (await call('search_files', { pattern: '^', outputMode: 'files_with_matches' }))
      .files as string[];
    expect([...found].sort()).toEqual(expectedFiles);
    expect(listed).toEqual(expectedFiles);
    expect([...searched].sort()).toEqual(expectedFiles);
    const top = (await call('list_files', {})).entries as Array<{ path: string }>;
    expect(top.map((entry) => entry.path)).toEqual(['.github', '.gitignore', 'a.txt', 'sub']);
  });

  it('D09: find_files and list_files name the top-most skipped paths with their rules', async () => {
    const { call } = await d09Tree(repo);
    const found = await call('find_files', { pattern: '**' });
    expect(found.ignored?.paths).toEqual([
      { path: 'build/out.txt', rule: '.gitignore:1:build/' },
      { path: 'sub/x.log', rule: 'sub/.gitignore:1:*.log' },
    ]);
    const listed = await call('list_files', { recursive: true });
    expect([...(listed.ignored?.paths ?? [])].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      expectedIgnored,
    );
  });

  it('D09: a search whose only match is skipped returns no match but says which rule skipped it', async () => {
    const { call } = await d09Tree(repo);
    const result = await call('search_files', { pattern: 'needle in build' });
    expect(result.matches).toEqual([]);
    expect(result.ignored).toEqual({
      count: 1,
      paths: [{ path: 'build/out.txt', rule: '.gitignore:1:build/' }],
    });
  });

  it('lists and searches an ignored directory the model names as its path', async () => {
    const { call } = await d09Tree(repo);
    const listed = (await call('list_files', { path: 'build' })).entries as Array<{ path: string }>;
    expect(listed.map((entry) => entry.path)).toEqual(['build/out.txt']);
    const searched = (await call('search_files', { pattern: 'needle', path: 'build' })).matches as Array<{
      path: string;
    }>;
    expect(searched.map((match) => match.path)).toEqual(['build/out.txt']);
  });

  it('keeps a file a later !negation brings back, in all three tools, as git does', async () => {
    const { call, client } = await d09Tree(repo);
    await client.writeFile('logs/.gitignore', '*.log\n!keep.log\n');
    await client.writeFile('logs/drop.log', 'needle dropped\n');
    await client.writeFile('logs/keep.log', 'needle kept\n');
    const found = await call('find_files', { pattern: 'logs/*.log' });
    expect(found.files).toEqual(['logs/keep.log']);
    expect(found.ignored?.paths).toEqual([{ path: 'logs/drop.log', rule: 'logs/.gitignore:1:*.log' }]);
    const listed = await call('list_files', { path: 'logs' });
    expect((listed.entries as Array<{ path: string }>).map((entry) => entry.path)).toEqual([
      'logs/.gitignore',
      'logs/keep.log',
    ]);
    const searched = await call('search_files', { pattern: 'needle', path: 'logs' });
    expect((searched.matches as Array<{ path: string }>).map((match) => match.path)).toEqual([
      'logs/keep.log',
    ]);
  });
});
