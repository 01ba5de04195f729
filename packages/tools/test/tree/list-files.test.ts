import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListFilesTool } from '../../src/tree/list-files.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  await writeFile(join(sandbox.workdir, 'plain.txt'), 'hello');
  await writeFile(join(sandbox.workdir, 'a\nb.txt'), '');
  await symlink('/etc', join(sandbox.workdir, 'etc-link'));
  await mkdir(join(sandbox.workdir, 'src/deep'), { recursive: true });
  await writeFile(join(sandbox.workdir, 'src/x.ts'), 'x');
  await writeFile(join(sandbox.workdir, 'src/deep/y.ts'), 'yy');
  await writeFile(join(sandbox.workdir, 'src/deep/z.md'), 'z');
});
afterAll(() => sandbox.destroy());

const tool = () => createListFilesTool(sandbox.client, { root: sandbox.workdir });

describe('createListFilesTool', () => {
  it('B29: lists a name with a newline as one entry and a symlink as a symlink, not followed', async () => {
    const result = await tool().call({ path: '.' });
    expect(result.entries.map((e) => [e.path, e.kind])).toEqual([
      ['a\nb.txt', 'file'],
      ['etc-link', 'symlink'],
      ['plain.txt', 'file'],
      ['src', 'dir'],
    ]);
    expect(result.entries[2]).toMatchObject({ size: 5 });
    expect(Date.parse(result.entries[2]!.mtime)).toBeGreaterThan(Date.now() - 3_600_000);
    expect(result.truncated).toBe(false);
  });

  it('B29: counts the limit in records, not lines', async () => {
    const first = await tool().call({ limit: 1 });
    expect(first).toMatchObject({ entries: [{ path: 'a\nb.txt' }], truncated: true, nextOffset: 1 });
    const second = await tool().call({ limit: 2, offset: 1 });
    expect(second.entries.map((e) => e.path)).toEqual(['etc-link', 'plain.txt']);
    const last = await tool().call({ limit: 2, offset: 3 });
    expect(last).toMatchObject({ entries: [{ path: 'src' }], truncated: false });
    expect(last.nextOffset).toBeUndefined();
  });

  it('lists a subdirectory recursively with paths relative to the root, filtered by glob', async () => {
    const all = await tool().call({ path: 'src', recursive: true });
    expect(all.entries.map((e) => e.path)).toEqual([
      'src/deep',
      'src/deep/y.ts',
      'src/deep/z.md',
      'src/x.ts',
    ]);
    const ts = await tool().call({ path: 'src', recursive: true, glob: '*.ts' });
    expect(ts.entries.map((e) => e.path)).toEqual(['src/deep/y.ts', 'src/x.ts']);
    const nested = await tool().call({ path: 'src', recursive: true, glob: 'deep/*.md' });
    expect(nested.entries.map((e) => e.path)).toEqual(['src/deep/z.md']);
  });

  it('does not list the target of a symlink to a directory outside the root', async () => {
    const error = await tool()
      .call({ path: 'etc-link' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('outside_root');
  });

  it('throws not_found for a missing directory and not_directory for a file', async () => {
    const missing = await tool()
      .call({ path: 'nope' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(missing) && missing.code).toBe('not_found');
    const file = await tool()
      .call({ path: 'plain.txt' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(file) && file.code).toBe('not_directory');
  });

  it('cuts a page at maxOutputBytes and pages through every entry', async () => {
    const own = await createLocalSandboxAdapter().create();
    try {
      for (let i = 0; i < 40; i++)
        await writeFile(join(own.workdir, `file-${String(i).padStart(2, '0')}.txt`), '');
      const capped = createListFilesTool(own.client, { root: own.workdir, maxOutputBytes: 1024 });
      const seen: string[] = [];
      let offset: number | undefined = 0;
      let pages = 0;
      while (offset !== undefined) {
        const page: { entries: { path: string }[]; nextOffset?: number | undefined } = await capped.call({
          offset,
        });
        expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThan(1024);
        seen.push(...page.entries.map((entry) => entry.path));
        offset = page.nextOffset;
        pages++;
      }
      expect(pages).toBeGreaterThan(1);
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => `file-${String(i).padStart(2, '0')}.txt`));
    } finally {
      await own.destroy();
    }
  });
});
