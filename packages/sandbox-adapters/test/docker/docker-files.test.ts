/**
 * The Docker adapter's file transfer at archive speed, against the real engine at DOCKER_HOST:
 * large reads through the archive endpoint (archive-request.ts, symlinks followed), small ones over the channel,
 * writes as a streamed putArchive, and the sandbox user's ownership of what is written.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelWriteMaxBytes } from '../../src/docker/channel-write.js';
import { archiveReadMinBytes } from '../../src/docker/docker-files.js';
import { countManagedContainers, dockerTestImage } from './docker-test-helpers.js';

let handle: SandboxHandle | undefined;
let user: SandboxHandle | undefined;
const sandbox = (which: SandboxHandle | undefined): SandboxHandle => {
  if (!which) throw new Error('the sandbox was not created (see the beforeAll error)');
  return which;
};

beforeAll(async () => {
  [handle, user] = await Promise.all([
    createDockerSandboxAdapter({ image: dockerTestImage }).create(),
    createDockerSandboxAdapter({ image: dockerTestImage, user: '1000' }).create(),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([handle?.destroy(), user?.destroy()]);
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
}, 180_000);

describe('readFile (docker)', () => {
  describe('when the file is larger than archiveReadMinBytes', () => {
    it('returns its exact bytes, also through a relative and an absolute symlink', async () => {
      const { client, workdir } = sandbox(handle);
      const data = randomBytes(archiveReadMinBytes + 12_345);
      await client.writeFile('big/data.bin', data);
      await client.exec(`ln -s data.bin big/rel && ln -s ${workdir}/big/rel big/abs`);
      for (const path of ['big/data.bin', 'big/rel', 'big/abs', `${workdir}/big/data.bin`]) {
        const back = await client.readFile(path);
        expect(back.length, path).toBe(data.length);
        expect(Buffer.from(back).equals(data), path).toBe(true);
      }
    }, 120_000);
  });
  describe('when a relative symlink sits in a directory reached through a symlink', () => {
    it('returns the bytes of the file the kernel resolves `..` to, large and small (a tool that read the other file would lie)', async () => {
      const { client } = sandbox(handle);
      // /tmp/ld → /tmp/d1/d2, and /tmp/d1/d2/up → ../big: the kernel reads /tmp/d1/big, while
      // resolving `..` on the path as written would give /tmp/big.
      await client.exec(
        'rm -rf /tmp/d1 /tmp/ld && mkdir -p /tmp/d1/d2 && ln -s /tmp/d1/d2 /tmp/ld && ln -s ../big /tmp/d1/d2/up && ln -s ../small /tmp/d1/d2/up-small',
      );
      const right = randomBytes(archiveReadMinBytes + 5);
      await client.writeFile('/tmp/d1/big', right);
      await client.writeFile('/tmp/big', randomBytes(archiveReadMinBytes + 5));
      await client.writeFile('/tmp/d1/small', 'right');
      await client.writeFile('/tmp/small', 'wrong');
      expect(Buffer.from(await client.readFile('/tmp/ld/up')).equals(right)).toBe(true);
      expect(Buffer.from(await client.readFile('/tmp/ld/up-small')).toString()).toBe('right');
    }, 120_000);
  });
  describe('when the path is a pipe or a device', () => {
    it('refuses it at once and leaves no process behind (cat would wait for a writer, or never end)', async () => {
      const { client } = sandbox(handle);
      await client.exec('rm -f /tmp/fifo && mkfifo /tmp/fifo');
      for (const path of ['/tmp/fifo', '/dev/zero', '/dev/null']) {
        const started = Date.now();
        await expect(client.readFile(path), path).rejects.toMatchObject({
          code: 'refused',
          message: expect.stringContaining('not a regular file'),
        });
        expect(Date.now() - started, path).toBeLessThan(10_000);
      }
      const left = await client.exec('ps -eo args | grep -c "^cat -- /tmp/fifo" || true');
      expect(left.stdout.trim()).toBe('0');
    }, 60_000);
  });
  describe('when a parent of the path is a regular file', () => {
    it('throws not_directory, as the local adapter does', async () => {
      const { client } = sandbox(handle);
      await client.writeFile('plain-parent', 'x');
      await expect(client.readFile('plain-parent/child')).rejects.toMatchObject({ code: 'not_directory' });
      await expect(client.readFile('plain-parent/x/child')).rejects.toMatchObject({ code: 'not_directory' });
    });
  });
  describe('when a parent directory may not be searched by the sandbox user', () => {
    it('says Permission denied, not that the file does not exist', async () => {
      const { client } = sandbox(user);
      await client.writeFile('locked/f.txt', 'x');
      await client.exec('chmod 000 locked');
      try {
        await expect(client.readFile('locked/f.txt')).rejects.toMatchObject({
          code: 'sandbox_unavailable',
          message: expect.stringContaining('Permission denied'),
        });
        await expect(client.readFile('locked-not-there/f.txt')).rejects.toMatchObject({
          code: 'file_not_found',
        });
      } finally {
        await client.exec('chmod 755 locked');
      }
    }, 60_000);
  });
  describe('when the sandbox user may not read the file', () => {
    it('refuses a large one as it refuses a small one, also through a symlink (the engine reads as root)', async () => {
      const { client } = sandbox(user);
      await client.writeFile('secret/big.bin', randomBytes(archiveReadMinBytes + 1));
      await client.writeFile('secret/small.bin', 'small');
      await client.exec('chmod 000 secret/big.bin secret/small.bin && ln -s big.bin secret/link');
      for (const path of ['secret/small.bin', 'secret/big.bin', 'secret/link'])
        await expect(client.readFile(path), path).rejects.toMatchObject({
          code: 'sandbox_unavailable',
          message: expect.stringContaining('Permission denied'),
        });
    }, 120_000);
  });
  describe('when the path is empty or holds a NUL byte', () => {
    it('rejects it as invalid_option in readFile and writeFile, as the local adapter does', async () => {
      const { client } = sandbox(handle);
      for (const path of ['', 'a\0b'])
        for (const call of [() => client.readFile(path), () => client.writeFile(path, 'x')])
          await expect(call(), JSON.stringify(path)).rejects.toMatchObject({ code: 'invalid_option' });
    });
  });
  describe('when the file is small', () => {
    it('reads every byte value, and an empty file', async () => {
      const { client } = sandbox(handle);
      const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
      await client.writeFile('small.bin', bytes);
      expect(Buffer.from(await client.readFile('small.bin')).equals(Buffer.from(bytes))).toBe(true);
      await client.writeFile('empty.bin', new Uint8Array());
      expect((await client.readFile('empty.bin')).length).toBe(0);
    });
  });
});

describe('writeFile (docker)', () => {
  describe('when the file is at most channelWriteMaxBytes', () => {
    it('writes it byte for byte over the channel, which then runs the next command', async () => {
      const { client } = sandbox(handle);
      const data = randomBytes(channelWriteMaxBytes - 7);
      await client.writeFile('channel/nested/five.bin', data);
      const sum = await client.exec('sha256sum channel/nested/five.bin; echo next');
      expect(sum.stdout).toBe(
        `${createHash('sha256').update(data).digest('hex')}  channel/nested/five.bin\nnext\n`,
      );
      await client.writeFile('channel/nested/five.bin', 'replaced');
      expect(Buffer.from(await client.readFile('channel/nested/five.bin')).toString()).toBe('replaced');
      const left = await client.exec("find channel -name '.sandkit-*' | wc -l");
      expect(left.stdout.trim()).toBe('0');
    }, 120_000);
  });
  describe('when the sandbox runs as a non-root user', () => {
    it('writes a large file owned by that user, with the requested mode', async () => {
      const { client } = sandbox(user);
      const data = randomBytes(20 * 2 ** 20);
      await client.writeFile('owned/large.bin', data, { mode: 0o600 });
      const info = await client.exec("stat -c '%u %a %s' owned/large.bin; sha256sum owned/large.bin");
      const [owner, sum] = info.stdout.split('\n');
      expect(owner).toBe(`1000 600 ${data.length}`);
      expect(sum?.split(' ')[0]).toBe(createHash('sha256').update(data).digest('hex'));
    }, 120_000);
  });
  describe('when a large file replaces an existing one and no mode is given', () => {
    it("keeps the existing file's mode, also through a symlink, and leaves no temp file", async () => {
      const { client } = sandbox(handle);
      await client.writeFile('keep/run.sh', '#!/bin/sh\necho one\n');
      await client.exec('chmod 750 keep/run.sh && ln -s run.sh keep/link');
      const data = Buffer.concat([
        Buffer.from('#!/bin/sh\necho two\n#'),
        randomBytes(channelWriteMaxBytes * 4).map((byte) => 97 + (byte % 26)),
      ]);
      await client.writeFile('keep/run.sh', data);
      await client.writeFile('keep/other.sh', data);
      await client.exec('chmod 700 keep/other.sh');
      await client.writeFile('keep/link', data);
      const info = await client.exec(
        "stat -c '%a' keep/run.sh keep/other.sh; ./keep/run.sh; find keep -name '.sandkit-*' | wc -l",
      );
      expect(info.stdout).toBe('750\n700\ntwo\n0\n');
    }, 120_000);
  });
});
