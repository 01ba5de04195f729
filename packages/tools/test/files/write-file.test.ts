import { access, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      expect(result).toEqual({ path: 'deep/er/new.txt', bytesWritten: 8, created: true });
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
