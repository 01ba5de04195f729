import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFindFilesTool } from '../../src/tree/find-files.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  const files = [
    'a.ts',
    'b.js',
    'src/c.ts',
    'src/lib/d.ts',
    'src/lib/e.test.ts',
    'src/(x)+.ts',
    'docs/f1.md',
    'docs/f22.md',
    '.git/HEAD.ts',
  ];
  for (const file of files) {
    await mkdir(join(sandbox.workdir, file, '..'), { recursive: true });
    await writeFile(join(sandbox.workdir, file), '');
  }
  await symlink('/usr', join(sandbox.workdir, 'usr-link'));
});
afterAll(() => sandbox.destroy());

const tool = () => createFindFilesTool(sandbox.client, { root: sandbox.workdir });
const find = async (input: { pattern: string; path?: string }) =>
  ((await tool().call(input)).files as string[]).sort();

describe('createFindFilesTool', () => {
  it.each([
    ['*.ts', ['a.ts']],
    ['**/*.ts', ['a.ts', 'src/(x)+.ts', 'src/c.ts', 'src/lib/d.ts', 'src/lib/e.test.ts']],
    ['src/*.ts', ['src/(x)+.ts', 'src/c.ts']],
    ['src/**/*.ts', ['src/(x)+.ts', 'src/c.ts', 'src/lib/d.ts', 'src/lib/e.test.ts']],
    ['**/*.test.ts', ['src/lib/e.test.ts']],
    ['docs/f?.md', ['docs/f1.md']],
    ['docs/f*.md', ['docs/f1.md', 'docs/f22.md']],
    ['*.{ts,js}', ['a.ts', 'b.js']],
    ['src/(x)+.ts', ['src/(x)+.ts']],
    ['[ab].*', ['a.ts', 'b.js']],
  ])('matches %s', async (pattern, expected) => {
    expect(await find({ pattern })).toEqual(expected);
  });

  it('searches below path and returns paths relative to the root', async () => {
    expect(await find({ pattern: '*.ts', path: 'src/lib' })).toEqual(['src/lib/d.ts', 'src/lib/e.test.ts']);
  });

  it('skips .git and does not descend into a symlinked directory', async () => {
    const all = await find({ pattern: '**' });
    expect(all).toContain('usr-link');
    expect(all.some((path) => path.startsWith('.git/') || path.startsWith('usr-link/'))).toBe(false);
  });

  it('pages through every result exactly once', async () => {
    const seen: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page: { files: string[]; nextOffset?: number | undefined } = await tool().call({
        pattern: '**',
        limit: 3,
        offset,
      });
      expect(page.files.length).toBeLessThanOrEqual(3);
      seen.push(...page.files);
      offset = page.nextOffset;
    }
    expect(seen.sort()).toEqual(await find({ pattern: '**' }));
    expect(seen).toHaveLength(9);
  });
});
