import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarOneFileParts } from '../../../src/docker/transport/tar-archive.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-tar-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('tarOneFileParts', () => {
  it('makes an archive GNU tar extracts to the same bytes and mode', async () => {
    const dir = join(scratch, 'extract');
    await mkdir(dir);
    const data = randomBytes(70_000);
    const archive = Buffer.concat(tarOneFileParts({ name: 'out.bin', data, mode: 0o640, uid: 0, gid: 0 }));
    execFileSync('tar', ['-C', dir, '--no-same-owner', '-xf', '-'], { input: archive });
    expect((await readFile(join(dir, 'out.bin'))).equals(data)).toBe(true);
    expect((await stat(join(dir, 'out.bin'))).mode & 0o777).toBe(0o640);
    expect(archive.length % 512).toBe(0);
  });
  it('throws RangeError for a name longer than 100 bytes', () => {
    expect(() =>
      tarOneFileParts({ name: 'x'.repeat(101), data: new Uint8Array(), mode: 0o644, uid: 0, gid: 0 }),
    ).toThrow(RangeError);
  });
});
