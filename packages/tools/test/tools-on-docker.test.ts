/**
 * D13, D09, R16 and F06 on the Docker adapter against the real engine at DOCKER_HOST (Podman's Docker API in
 * CI), image `localhost/sandkit-sandbox:bookworm` or SANDKIT_DOCKER_IMAGE: the signal names and the
 * shared ignore rules hold in a container too (its own sh, git, rg and findutils).
 */
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../src/create-coding-tools.js';

const image = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

let sandbox: SandboxHandle;
let call: (name: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;
beforeAll(async () => {
  sandbox = await createDockerSandboxAdapter({ image }).create();
  const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
  call = async (name, input) =>
    (await tools.find((tool) => tool.name === name)!.call(input)) as Record<string, unknown>;
}, 120_000);
afterAll(() => sandbox?.destroy());

describe('the coding tools on the Docker adapter', () => {
  it.each([
    ['echo partial; kill -SEGV $$', 'SIGSEGV'],
    ['echo partial; kill -9 $$', 'SIGKILL'],
  ])('D13: exec and run_tests name the signal of `%s`', async (command, signal) => {
    expect(await call('exec', { command })).toMatchObject({ exitCode: null, signal, stdout: 'partial\n' });
    expect(await call('run_tests', { command })).toMatchObject({ exitCode: null, signal });
  });

  it('D09: search, find and list agree outside a repository: hidden found, build/ skipped with its rule', async () => {
    const files: Record<string, string> = {
      '.github/ci.yml': 'needle in hidden\n',
      'a.txt': 'needle visible\n',
      '.gitignore': 'build/\n',
      'build/out.txt': 'needle in build\n',
    };
    for (const [path, content] of Object.entries(files))
      await sandbox.client.writeFile(`${sandbox.workdir}/d09/${path}`, content);
    const searched = await call('search_files', { pattern: 'needle', path: 'd09' });
    expect((searched.matches as Array<{ path: string }>).map((m) => m.path)).toEqual([
      'd09/.github/ci.yml',
      'd09/a.txt',
    ]);
    expect(searched.ignored).toEqual({
      count: 1,
      paths: [{ path: 'd09/build/out.txt', rule: 'd09/.gitignore:1:build/' }],
    });
    const found = await call('find_files', { pattern: '**', path: 'd09' });
    expect([...(found.files as string[])].sort()).toEqual([
      'd09/.github/ci.yml',
      'd09/.gitignore',
      'd09/a.txt',
    ]);
    const listed = await call('list_files', { path: 'd09' });
    expect((listed.entries as Array<{ path: string }>).map((e) => e.path)).toEqual([
      'd09/.github',
      'd09/.gitignore',
      'd09/a.txt',
    ]);
    expect(listed.ignored).toEqual({
      count: 1,
      paths: [{ path: 'd09/build', rule: 'd09/.gitignore:1:build/' }],
    });
  });

  it('R16: edit_file and write_file through a hard link change every name of the file', async () => {
    await sandbox.client.exec("mkdir -p r16 && printf 'v=0\\n' > r16/h.txt && ln r16/h.txt r16/h2.txt");
    const edited = await call('edit_file', {
      path: 'r16/h2.txt',
      edits: [{ oldText: 'v=0', newText: 'v=1' }],
    });
    expect(edited.notice).toContain('2 hard links');
    expect((await sandbox.client.exec('cat r16/h.txt')).stdout).toBe('v=1\n');
    await call('write_file', { path: 'r16/h.txt', content: 'v=2\n' });
    const after = await sandbox.client.exec("cat r16/h2.txt; stat -c '%h' r16/h.txt; ls -a r16");
    expect(after.stdout).toBe('v=2\n2\n.\n..\nh.txt\nh2.txt\n');
  });

  it('F06: exec shows a NUL as \\x00 and keeps the raw stream in outputFile in a container too', async () => {
    const result = await call('exec', { command: "printf 'name\\0value\\n'" });
    expect(result).toMatchObject({ stdout: 'name\\x00value\n' });
    const saved = await sandbox.client.readFile(`${sandbox.workdir}/${result.outputFile as string}`);
    expect(Buffer.from(saved)).toEqual(Buffer.from('name\0value\n', 'latin1'));
  });
});
