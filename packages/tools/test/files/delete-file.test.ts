import { access, lstat, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeleteFileTool } from '../../src/files/delete-file.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

let box: FileToolsSandbox;
let outside: string;
beforeAll(async () => {
  box = await createFileToolsSandbox();
  outside = `${box.root}-outside`;
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'keep.txt'), 'keep');
});
afterAll(async () => {
  await box.handle.destroy();
  await rm(outside, { recursive: true, force: true });
});

const remove = (input: Record<string, unknown>) =>
  createDeleteFileTool(box.handle.client, { root: box.root }).call(input);
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

describe('createDeleteFileTool', () => {
  it('deletes a file and reports deleted true', async () => {
    await box.put('gone.txt', 'x');
    expect(await remove({ path: 'gone.txt' })).toEqual({ path: 'gone.txt', deleted: true });
    expect(await exists(join(box.root, 'gone.txt'))).toBe(false);
  });

  it('reports deleted false for a missing path (forced)', async () => {
    expect(await remove({ path: 'never/was.txt' })).toEqual({ path: 'never/was.txt', deleted: false });
  });

  it('refuses a directory unless recursive, then deletes it with its contents', async () => {
    await box.put('tree/a/b.txt', 'x');
    expect((await toolError(remove({ path: 'tree' }))).code).toBe('is_directory');
    expect(await exists(join(box.root, 'tree/a/b.txt'))).toBe(true);
    expect((await remove({ path: 'tree', recursive: true })).deleted).toBe(true);
    expect(await exists(join(box.root, 'tree'))).toBe(false);
  });

  it.each(['.', '', './', 'sub/..'])('refuses the root itself (%j)', async (path) => {
    await box.put('sub/x.txt', 'x');
    const error = await toolError(remove({ path: path === '' ? '.' : path, recursive: true }));
    expect(error.code).toBe('refused');
    await access(join(box.root, 'sub/x.txt'));
  });

  it('deletes a symlink that points outside the root, not its target', async () => {
    await symlink(outside, join(box.root, 'link-out'));
    expect((await remove({ path: 'link-out', recursive: true })).deleted).toBe(true);
    expect(await exists(join(box.root, 'link-out'))).toBe(false);
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('deletes a symlink given with a trailing slash as the link itself', async () => {
    await symlink(outside, join(box.root, 'link-slash'));
    await remove({ path: 'link-slash/', recursive: true });
    expect(await exists(join(box.root, 'link-slash'))).toBe(false);
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('refuses a path under a symlink that leads outside', async () => {
    await symlink(outside, join(box.root, 'link-parent'));
    expect((await toolError(remove({ path: 'link-parent/keep.txt' }))).code).toBe('outside_root');
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('refuses ../ paths', async () => {
    expect((await toolError(remove({ path: `../${outside.split('/').pop()}/keep.txt` }))).code).toBe(
      'outside_root',
    );
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });
});
