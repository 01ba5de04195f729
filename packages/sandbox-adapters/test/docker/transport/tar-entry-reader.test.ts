import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstTarEntryReader, type TarEntry } from '../../../src/docker/transport/tar-entry-reader.js';
import { oneFileTar } from './one-file-tar.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-tar-reader-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Pushes `bytes` in chunks of `size` bytes until the entry is known, then ends the reader. */
function firstEntry(bytes: Buffer, size: number): TarEntry {
  const reader = new FirstTarEntryReader();
  for (let at = 0; at < bytes.length && reader.entry === undefined; at += size)
    reader.push(bytes.subarray(at, at + size));
  return reader.end();
}

/** An archive made by GNU tar (`--format=pax`) of `name` inside `dir`. */
function gnuTar(dir: string, name: string): Buffer {
  return execFileSync('tar', ['--format=pax', '-C', dir, '-cf', '-', name], { maxBuffer: 64 * 2 ** 20 });
}

describe('FirstTarEntryReader', () => {
  describe('when the archive holds a regular file behind a PAX long-name record', () => {
    it.each([1, 7, 511, 513, 65536])('returns its exact bytes with chunks of %i bytes', async (size) => {
      const dir = join(scratch, `pax-${size}`);
      const name = `${'n'.repeat(150)}.bin`;
      const data = randomBytes(100_003);
      await mkdir(dir);
      await writeFile(join(dir, name), data);
      const entry = firstEntry(gnuTar(dir, name), size);
      expect(entry.kind).toBe('file');
      expect(entry.kind === 'file' && entry.data.equals(data)).toBe(true);
    });
  });
  describe('when the caller writes the data into directTarget itself', () => {
    it('returns the bytes written there and those pushed, in order', async () => {
      const data = randomBytes(300_000);
      const archive = await oneFileTar('f', data);
      const reader = new FirstTarEntryReader();
      expect(reader.directTarget(1)).toBeUndefined(); // the header has not arrived
      reader.push(archive.subarray(0, 512 + 1000)); // header and the first 1000 bytes, copied
      let at = 512 + 1000;
      while (reader.entry === undefined) {
        const target = reader.directTarget(4096);
        if (target === undefined) {
          reader.push(archive.subarray(at, at + 4096)); // the last < 4096 bytes and padding
          at += 4096;
          continue;
        }
        const count = archive.copy(target, 0, at, Math.min(at + 70_000, 512 + data.length));
        reader.wroteDirect(count);
        at += count;
      }
      expect(reader.entry.kind === 'file' && reader.entry.data.equals(data)).toBe(true);
      expect(reader.directTarget(1)).toBeUndefined();
    });
  });
  describe('when the first entry is not a regular file', () => {
    it('reports a directory, a symlink with its target, and an empty archive', async () => {
      const dir = join(scratch, 'kinds');
      await mkdir(join(dir, 'sub'), { recursive: true });
      await symlink('../elsewhere/target.txt', join(dir, 'link'));
      expect(firstEntry(gnuTar(dir, 'sub'), 4096)).toEqual({ kind: 'directory' });
      expect(firstEntry(gnuTar(dir, 'link'), 4096)).toEqual({
        kind: 'symlink',
        target: '../elsewhere/target.txt',
      });
      expect(firstEntry(Buffer.alloc(1024), 100)).toEqual({ kind: 'none' });
    });
  });
  describe('when the archive ends inside the data', () => {
    it('throws RangeError naming how many bytes arrived', async () => {
      const whole = await oneFileTar('f', randomBytes(5000));
      expect(() => firstEntry(whole.subarray(0, 512 + 1000), 700)).toThrow(
        'the archive ended after 1000 of 5000 bytes',
      );
    });
  });
});
