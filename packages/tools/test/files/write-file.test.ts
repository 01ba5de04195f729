import { access, link, readdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile } from 'node:fs/promises';
import { createEditFileTool } from '../../src/edit/edit-file.js';
import { contentRevision } from '../../src/files/content-revision.js';
import { createReadFileTool } from '../../src/files/read-file.js';
import { createWriteFileTool, maxWriteBytes } from '../../src/files/write-file.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

let box: FileToolsSandbox;
beforeAll(async () => {
  box = await createFileToolsSandbox();
});
afterAll(() => box.handle.destroy());

const write = (input: Record<string, unknown>) =>
  createWriteFileTool(box.handle.client, { root: box.root }).call(input);

describe('createWriteFileTool', () => {
  describe('when the file does not exist', () => {
    it('creates it and its parent directories, and reports created', async () => {
      const result = await write({ path: 'deep/er/new.txt', content: 'héllo\r\n' });
      expect(result).toEqual({
        path: 'deep/er/new.txt',
        bytesWritten: 8,
        created: true,
        revision: contentRevision(Buffer.from('héllo\r\n', 'utf8')),
      });
      expect(await box.bytes('deep/er/new.txt')).toEqual(Buffer.from('héllo\r\n', 'utf8'));
    });
  });

  describe('when the file exists', () => {
    it('replaces the content, keeps the mode, and reports created false', async () => {
      await box.put('run.sh', '#!/bin/sh\n', 0o750);
      const result = await write({ path: 'run.sh', content: '#!/bin/sh\necho ok\n' });
      expect(result.created).toBe(false);
      expect((await box.bytes('run.sh')).toString()).toBe('#!/bin/sh\necho ok\n');
      expect((await stat(join(box.root, 'run.sh'))).mode & 0o777).toBe(0o750);
    });

    it('B15: writes curly quotes as they are', async () => {
      await write({ path: 'quote.txt', content: 'it’s “quoted”' });
      expect(await box.bytes('quote.txt')).toEqual(Buffer.from('it’s “quoted”', 'utf8'));
    });
  });

  describe('when expectedRevision is given', () => {
    const read = (path: string) =>
      createReadFileTool(box.handle.client, { root: box.root }).call({ path }) as Promise<{
        revision: string;
      }>;

    it('F05: refuses a whole-file write built from a read the file changed after, as edit_file does', async () => {
      await box.put('m.py', 'def a():\n    return 1\n');
      const { revision } = await read('m.py');
      await appendFile(join(box.root, 'm.py'), 'def user_added():\n    return 42\n');
      const error = await toolError(
        write({ path: 'm.py', content: 'def a():\n    return 2\n', expectedRevision: revision }),
      );
      expect(error.code).toBe('revision_mismatch');
      expect(error.message).toContain(`m.py changed since revision ${revision}`);
      expect(error.message).toContain('read it again with read_file');
      expect((await box.bytes('m.py')).toString()).toContain('user_added');
      const edit = createEditFileTool(box.handle.client, { root: box.root });
      const editError = await toolError(
        edit.call({ path: 'm.py', edits: [{ oldText: '1', newText: '2' }], expectedRevision: revision }),
      );
      expect(editError.code).toBe('revision_mismatch');
      expect(editError.message).toBe(error.message);
    });

    it('F05: writes when the revision still matches, and returns the new one for the next call', async () => {
      await box.put('n.py', 'x = 1\n');
      const { revision } = await read('n.py');
      const result = await write({ path: 'n.py', content: 'x = 2\n', expectedRevision: revision });
      expect(result).toMatchObject({ created: false, revision: contentRevision(Buffer.from('x = 2\n')) });
      const again = await write({ path: 'n.py', content: 'x = 3\n', expectedRevision: result.revision });
      expect(again.bytesWritten).toBe(6);
      expect((await box.bytes('n.py')).toString()).toBe('x = 3\n');
    });

    it('F05: refuses when the file read before was deleted since', async () => {
      await box.put('gone.py', 'x\n');
      const { revision } = await read('gone.py');
      await box.handle.client.exec(`rm ${join(box.root, 'gone.py')}`);
      const error = await toolError(write({ path: 'gone.py', content: 'y\n', expectedRevision: revision }));
      expect(error.message).toContain('it no longer exists');
      await expect(access(join(box.root, 'gone.py'))).rejects.toThrow();
    });
  });

  describe('when encoding is base64', () => {
    it('writes the decoded bytes exactly', async () => {
      const data = Buffer.from([0, 255, 0xe9, 10, 13, 0x80]);
      const result = await write({ path: 'bin.dat', content: data.toString('base64'), encoding: 'base64' });
      expect(result.bytesWritten).toBe(6);
      expect(await box.bytes('bin.dat')).toEqual(data);
    });

    it('rejects content that is not base64', async () => {
      expect(
        (await toolError(write({ path: 'bad.dat', content: 'not base64!', encoding: 'base64' }))).code,
      ).toBe('invalid_arguments');
    });
  });

  describe('when the call is refused', () => {
    it('rejects content over 2 MiB with too_large and writes nothing', async () => {
      const error = await toolError(write({ path: 'huge.txt', content: 'x'.repeat(maxWriteBytes + 1) }));
      expect(error.code).toBe('too_large');
      await expect(access(join(box.root, 'huge.txt'))).rejects.toThrow();
    });

    it('refuses a directory', async () => {
      await box.put('adir/file.txt', 'x');
      expect((await toolError(write({ path: 'adir', content: 'x' }))).code).toBe('is_directory');
    });

    it('refuses a path outside the root and creates nothing outside', async () => {
      const name = `sandkit-outside-${process.pid}-${Date.now()}`;
      const error = await toolError(write({ path: `../${name}/x.txt`, content: 'x' }));
      expect(error.code).toBe('outside_root');
      await expect(access(join(box.root, '..', name))).rejects.toThrow();
    });

    it('refuses a symlink that leads outside the root and creates nothing there', async () => {
      const outside = `${box.root}-elsewhere`;
      await symlink(outside, join(box.root, 'escape'));
      const error = await toolError(write({ path: 'escape/x.txt', content: 'x' }));
      expect(error.code).toBe('outside_root');
      await expect(access(outside)).rejects.toThrow();
    });
  });
});

describe('writeKeepingLinks', () => {
  const edit = (input: Record<string, unknown>) =>
    createEditFileTool(box.handle.client, { root: box.root }).call(input) as Promise<{ notice?: string }>;

  it('R16: edit_file through a hard link changes every name of the file, and says so', async () => {
    await box.put('h.txt', 'v=0\n', 0o640);
    await link(join(box.root, 'h.txt'), join(box.root, 'h2.txt'));
    const result = await edit({ path: 'h2.txt', edits: [{ oldText: 'v=0', newText: 'v=1' }] });
    expect((await box.bytes('h.txt')).toString()).toBe('v=1\n');
    expect((await box.bytes('h2.txt')).toString()).toBe('v=1\n');
    const [one, two] = [await stat(join(box.root, 'h.txt')), await stat(join(box.root, 'h2.txt'))];
    expect([one.ino, one.nlink, one.mode & 0o777]).toEqual([two.ino, 2, 0o640]);
    expect(result.notice).toContain('2 hard links; it was written in place');
    expect((await readdir(box.root)).filter((name) => name.includes('sandkit-tmp'))).toEqual([]);
  });

  it('R16: write_file through a hard link keeps it, and a single-link file is still replaced atomically', async () => {
    await box.put('w.txt', 'old\n');
    await link(join(box.root, 'w.txt'), join(box.root, 'sub-w.txt'));
    const result = await write({ path: 'sub-w.txt', content: 'new\n' });
    expect(result.notice).toContain('2 hard links');
    expect((await box.bytes('w.txt')).toString()).toBe('new\n');
    await box.put('single.txt', 'a\n');
    const before = (await stat(join(box.root, 'single.txt'))).ino;
    const plain = await write({ path: 'single.txt', content: 'b\n' });
    expect(plain.notice).toBeUndefined();
    expect((await stat(join(box.root, 'single.txt'))).ino).not.toBe(before);
  });

  it('R16: concurrent edits through two names of one hard-linked file both land (one lock per inode)', async () => {
    await box.put('pair/a.txt', 'l1\nl2\nl3\n');
    await link(join(box.root, 'pair/a.txt'), join(box.root, 'pair-b.txt'));
    await Promise.all([
      edit({ path: 'pair/a.txt', edits: [{ oldText: 'l1', newText: 'L1' }] }),
      edit({ path: 'pair-b.txt', edits: [{ oldText: 'l2', newText: 'L2' }] }),
      write({ path: 'pair/a.txt', content: 'l1\nl2\nl3\n', expectedRevision: '0000000000000000' }).catch(
        () => {},
      ),
      edit({ path: 'pair-b.txt', edits: [{ oldText: 'l3', newText: 'L3' }] }),
    ]);
    expect((await box.bytes('pair-b.txt')).toString()).toBe('L1\nL2\nL3\n');
    expect((await box.bytes('pair/a.txt')).toString()).toBe('L1\nL2\nL3\n');
  });
});
