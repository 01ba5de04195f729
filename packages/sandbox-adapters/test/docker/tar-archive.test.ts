import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFirstTarEntry, tarOneFileStream } from '../../src/docker/tar-archive.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-tar-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A stream of `bytes` cut into chunks of `size` bytes. */
function chunked(bytes: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return Readable.from(parts, { objectMode: false });
}

/** An archive made by GNU tar (`--format=pax`) of `name` inside `dir`. */
function gnuTar(dir: string, name: string): Buffer {
  return execFileSync('tar', ['--format=pax', '-C', dir, '-cf', '-', name], { maxBuffer: 64 * 2 ** 20 });
}

describe('readFirstTarEntry', () => {
  describe('when the archive holds a regular file behind a PAX long-name record', () => {
    it.each([1, 7, 511, 513, 65536])('returns its exact bytes with chunks of %i bytes', async (size) => {
      const dir = join(scratch, `pax-${size}`);
      const name = `${'n'.repeat(150)}.bin`;
      const data = randomBytes(100_003);
      await mkdir(dir);
      await writeFile(join(dir, name), data);
      const entry = await readFirstTarEntry(chunked(gnuTar(dir, name), size));
      expect(entry.kind).toBe('file');
      expect(entry.kind === 'file' && entry.data.equals(data)).toBe(true);
    });
  });
  describe('when the first entry is not a regular file', () => {
    it('reports a directory, a symlink with its target, and an empty archive', async () => {
      const dir = join(scratch, 'kinds');
      await mkdir(join(dir, 'sub'), { recursive: true });
      await symlink('../elsewhere/target.txt', join(dir, 'link'));
      expect(await readFirstTarEntry(chunked(gnuTar(dir, 'sub'), 4096))).toEqual({ kind: 'directory' });
      expect(await readFirstTarEntry(chunked(gnuTar(dir, 'link'), 4096))).toEqual({
        kind: 'symlink',
        target: '../elsewhere/target.txt',
      });
      expect(await readFirstTarEntry(chunked(Buffer.alloc(1024), 100))).toEqual({ kind: 'none' });
    });
  });
  describe('when the archive ends inside the data', () => {
    it('throws RangeError naming how many bytes arrived', async () => {
      const whole = Buffer.concat(
        await tarOneFileStream({ name: 'f', data: randomBytes(5000), mode: 0o644, uid: 0, gid: 0 }).toArray(),
      );
      const cut = whole.subarray(0, 512 + 1000);
      await expect(readFirstTarEntry(chunked(cut, 700))).rejects.toThrow(
        'the archive ended after 1000 of 5000 bytes',
      );
    });
  });
});

describe('tarOneFileStream', () => {
  it('makes an archive GNU tar extracts to the same bytes and mode', async () => {
    const dir = join(scratch, 'extract');
    await mkdir(dir);
    const data = randomBytes(70_000);
    const archive = Buffer.concat(
      await tarOneFileStream({ name: 'out.bin', data, mode: 0o640, uid: 0, gid: 0 }).toArray(),
    );
    execFileSync('tar', ['-C', dir, '--no-same-owner', '-xf', '-'], { input: archive });
    expect((await readFile(join(dir, 'out.bin'))).equals(data)).toBe(true);
    expect((await stat(join(dir, 'out.bin'))).mode & 0o777).toBe(0o640);
    expect(archive.length % 512).toBe(0);
  });
  it('throws RangeError for a name longer than 100 bytes', () => {
    expect(() =>
      tarOneFileStream({ name: 'x'.repeat(101), data: new Uint8Array(), mode: 0o644, uid: 0, gid: 0 }),
    ).toThrow(RangeError);
  });
});
