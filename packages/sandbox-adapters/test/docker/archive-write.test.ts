/**
 * Docker writeFile above channelWriteMaxBytes (src/docker/archive-write.ts), against the real engine
 * at DOCKER_HOST: atomic replacement while a reader loops, the replaced file freed after the call
 * with nothing left behind, what the sandbox user may not write refused before or after the upload
 * with nothing left in the directory, an abort during the upload, and the container removed while
 * the bytes upload (a byte-for-byte proxy in front of the engine removes it when the PUT arrives),
 * and an abort that comes after the upload, while the plain exec renames (the proxy aborts it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferredUnlinkMinBytes, unlinkHoldSeconds } from '../../src/docker/finish-write-script.js';
import { channelWriteMaxBytes } from '../../src/docker/channel-write.js';
import { dockerFromEnvironment } from '../../src/docker/transport/docker-connection.js';
import {
  countManagedContainers,
  dockerFaults,
  dockerTestImage,
  execAsRoot,
  testDocker,
} from './docker-test-helpers.js';

const sandboxes: Record<'root' | 'user' | 'userPlain', SandboxHandle | undefined> = {
  root: undefined,
  user: undefined,
  userPlain: undefined,
};
const sandbox = (which: keyof typeof sandboxes): SandboxHandle => {
  const handle = sandboxes[which];
  if (!handle) throw new Error('the sandbox was not created (see the beforeAll error)');
  return handle;
};
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
/** More than channelWriteMaxBytes, so the write goes through the archive endpoint. */
const large = () => randomBytes(channelWriteMaxBytes * 3);

beforeAll(async () => {
  const [root, user, userPlain] = await Promise.all([
    createDockerSandboxAdapter({ image: dockerTestImage }).create(),
    createDockerSandboxAdapter({ image: dockerTestImage, user: '1000' }).create(),
    createDockerSandboxAdapter({ image: dockerTestImage, user: '1000', channel: false }).create(),
  ]);
  Object.assign(sandboxes, { root, user, userPlain });
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((handle) => handle?.destroy()));
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
}, 180_000);

/** `.sandkit-*.tmp` files directly in `dir` of the sandbox, one per line. */
async function tempFiles(handle: SandboxHandle, dir: string): Promise<string> {
  return (await execAsRoot(handle, `find ${dir} -maxdepth 1 -name '.sandkit-*.tmp'`)).stdout;
}

describe('writeFile (docker, through the archive endpoint)', () => {
  describe('when a file over deferredUnlinkMinBytes replaces another while a reader loops', () => {
    it('shows the reader only the whole old or new bytes, keeps the mode, and leaves no temp file or holder', async () => {
      const { client } = sandbox('root');
      const a = randomBytes(deferredUnlinkMinBytes + 1000);
      const b = randomBytes(deferredUnlinkMinBytes + 2000);
      await client.writeFile('atomic/big.bin', a);
      await client.exec('chmod 640 atomic/big.bin');
      const reader = client.exec(
        'n=0; while [ ! -e atomic/stop ] || [ $n -lt 3 ]; do sha256sum < atomic/big.bin; n=$((n + 1)); done',
        { timeoutMs: 60_000 },
      );
      for (const data of [b, a, b]) await client.writeFile('atomic/big.bin', data);
      await client.writeFile('atomic/stop', '');
      const seen = await reader;
      expect(seen.stderr).toBe('');
      const hashes = new Set(
        seen.stdout
          .trim()
          .split('\n')
          .map((line) => line.split(' ')[0]),
      );
      expect([...hashes].filter((hash) => hash !== sha256(a) && hash !== sha256(b))).toEqual([]);
      const after = await client.exec("stat -c '%a' atomic/big.bin; sha256sum < atomic/big.bin");
      expect(after.stdout).toBe(`640\n${sha256(b)}  -\n`);
      expect(await tempFiles(sandbox('root'), '/workspace/atomic')).toBe('');
      // The background `sleep` that held the replaced file open ends right after the rename.
      const holders = await client.exec(
        `i=0; while pgrep -x -f 'sleep ${unlinkHoldSeconds}' >/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done; pgrep -x -f 'sleep ${unlinkHoldSeconds}' | wc -l`,
      );
      expect(holders.stdout.trim()).toBe('0');
    }, 120_000);
  });

  describe.each([
    ['channel', 'user'],
    ['plain exec', 'userPlain'],
  ] as const)('when a non-root write goes through a symlink into another directory (%s)', (_mode, which) => {
    it('replaces the target there, owned by the user, keeps the link, and leaves no temp file in either directory', async () => {
      const handle = sandbox(which);
      await handle.client.exec(
        'mkdir -p links/a links/b && printf old > links/b/t.bin && chmod 640 links/b/t.bin && ln -sfn ../b/t.bin links/a/l',
      );
      const data = large();
      await handle.client.writeFile('links/a/l', data);
      const info = await handle.client.exec(
        "test -L links/a/l && stat -c '%u %a' links/b/t.bin && sha256sum < links/b/t.bin",
      );
      expect(info.stdout).toBe(`1000 640\n${sha256(data)}  -\n`);
      expect(await tempFiles(handle, '/workspace/links/a')).toBe('');
      expect(await tempFiles(handle, '/workspace/links/b')).toBe('');
    }, 60_000);
  });

  describe.each([
    ['channel', 'user'],
    ['plain exec', 'userPlain'],
  ] as const)('when the sandbox user may not write the directory (%s)', (_mode, which) => {
    it('refuses a new file and a replacement with Permission denied, leaving nothing there', async () => {
      const handle = sandbox(which);
      const before = (await execAsRoot(handle, 'sha256sum /etc/debian_version')).stdout;
      for (const path of ['/etc/sandkit-new.bin', '/etc/debian_version'])
        await expect(handle.client.writeFile(path, large()), path).rejects.toMatchObject({
          code: 'sandbox_unavailable',
          message: expect.stringContaining('Permission denied'),
        });
      expect(await tempFiles(handle, '/etc')).toBe('');
      expect(
        (await execAsRoot(handle, 'ls /etc/sandkit-new.bin; sha256sum /etc/debian_version')).stdout,
      ).toBe(before);
    }, 60_000);
  });

  describe("when the target is root's file in a sticky directory the user may write", () => {
    it('fails as the rename does (Operation not permitted), keeping the old bytes and removing the temp file', async () => {
      const handle = sandbox('user');
      await execAsRoot(handle, 'printf old > /tmp/sandkit-roots.bin');
      await expect(handle.client.writeFile('/tmp/sandkit-roots.bin', large())).rejects.toMatchObject({
        code: 'sandbox_unavailable',
        message: expect.stringMatching(/not permitted/i),
      });
      expect((await execAsRoot(handle, 'cat /tmp/sandkit-roots.bin')).stdout).toBe('old');
      expect(await tempFiles(handle, '/tmp')).toBe('');
    }, 60_000);
  });

  describe('when the signal aborts while the bytes upload', () => {
    it('rejects with aborted, leaving the old file as it was and no temp file', async () => {
      const { client } = sandbox('root');
      await client.writeFile('abort/f.bin', 'old');
      const controller = new AbortController();
      const pending = client.writeFile('abort/f.bin', randomBytes(32 * 2 ** 20), {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 1);
      await expect(pending).rejects.toMatchObject({ code: 'aborted' });
      expect(Buffer.from(await client.readFile('abort/f.bin')).toString()).toBe('old');
      expect(await tempFiles(sandbox('root'), '/workspace/abort')).toBe('');
    }, 60_000);
  });

  describe('when the signal aborts once the upload is done, while the plain exec renames it in place', () => {
    let scratch = '';
    let server: Server | undefined;
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'sandkit-archive-abort-'));
    });
    afterAll(async () => {
      server?.close();
      await rm(scratch, { recursive: true, force: true });
    });
    it('resolves, because the file was replaced (never aborted with the new bytes in place)', async () => {
      const controller = new AbortController();
      const socketPath = join(scratch, 'abort.sock');
      // Armed for the second write: the first exec created after its archive PUT is the
      // finishing script's, sent the answer `go`.
      let stage: 'idle' | 'armed' | 'uploaded' = 'idle';
      server = await hookingProxy(
        socketPath,
        async () => {
          if (stage === 'armed') stage = 'uploaded';
        },
        (head) => {
          if (stage === 'uploaded' && /^POST \S*\/exec /.test(head)) controller.abort();
        },
      );
      const handle = await createDockerSandboxAdapter({
        image: dockerTestImage,
        docker: { socketPath },
        channel: false,
      }).create();
      try {
        await handle.client.writeFile('late.bin', 'old');
        stage = 'armed';
        const data = large();
        const outcome = await handle.client.writeFile('late.bin', data, { signal: controller.signal }).then(
          () => 'resolved',
          (error: { code?: string }) => error.code,
        );
        expect(controller.signal.aborted, 'the hook fired').toBe(true);
        const now = Buffer.from(await handle.client.readFile('late.bin'));
        expect({ outcome, replaced: now.equals(data) }).toEqual({ outcome: 'resolved', replaced: true });
      } finally {
        await handle.destroy();
      }
    }, 120_000);
  });

  describe('when the container is removed, or the channel killed, while the bytes upload', () => {
    let scratch = '';
    const proxies: Server[] = [];
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'sandkit-archive-write-'));
    });
    afterAll(async () => {
      for (const proxy of proxies) proxy.close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('rejects with sandbox_gone, and destroy still succeeds', async () => {
      let containerId = '';
      let removed = false;
      const socketPath = join(scratch, 'remove.sock');
      const proxy = await hookingProxy(socketPath, async () => {
        if (containerId === '' || removed) return;
        removed = true;
        await testDocker().getContainer(containerId).remove({ force: true });
      });
      proxies.push(proxy);
      const handle = await createDockerSandboxAdapter({
        image: dockerTestImage,
        docker: { socketPath },
      }).create();
      try {
        await handle.client.writeFile('before.bin', large());
        containerId = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
        await expect(handle.client.writeFile('during.bin', randomBytes(16 * 2 ** 20))).rejects.toMatchObject({
          code: 'sandbox_gone',
        });
        expect(removed).toBe(true);
      } finally {
        await handle.destroy();
      }
    }, 120_000);

    it('(the command channel killed instead) rejects with sandbox_unavailable, keeping the old bytes and removing the uploaded temp file', async () => {
      let armed: SandboxHandle | undefined;
      const socketPath = join(scratch, 'kill.sock');
      const proxy = await hookingProxy(socketPath, async () => {
        const handle = armed;
        armed = undefined;
        if (handle) await dockerFaults.endTransport?.(handle);
      });
      proxies.push(proxy);
      const handle = await createDockerSandboxAdapter({
        image: dockerTestImage,
        docker: { socketPath },
      }).create();
      try {
        await handle.client.writeFile('kept.bin', 'old');
        armed = handle;
        await expect(handle.client.writeFile('kept.bin', large())).rejects.toMatchObject({
          code: 'sandbox_unavailable',
        });
        expect(armed).toBeUndefined();
        expect(Buffer.from(await handle.client.readFile('kept.bin')).toString()).toBe('old');
        expect(await tempFiles(handle, '/workspace')).toBe('');
      } finally {
        await handle.destroy();
      }
    }, 120_000);
  });
});

/**
 * A unix socket at `path` that passes every connection through to the engine at DOCKER_HOST byte
 * for byte, except that a connection opening with an archive PUT first awaits `beforePut`; `watch`
 * sees the start of every chunk a client sends (requests on a kept-alive connection too).
 */
async function hookingProxy(
  path: string,
  beforePut: () => Promise<void>,
  watch?: (chunk: string) => void,
): Promise<Server> {
  const engine = dockerFromEnvironment(process.env.DOCKER_HOST);
  // Every chunk is looked at, not only a connection's first: dockerode (Node 20's keep-alive agent)
  // sends the archive PUT on a connection that earlier requests used.
  const server = createServer({ allowHalfOpen: true }, (client: Socket) => {
    const upstream =
      'socketPath' in engine ? connect({ path: engine.socketPath }) : connect(engine.port, engine.host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.pipe(client);
    let forwarded = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const head = chunk.subarray(0, 300).toString('latin1');
      watch?.(head);
      const put = /^PUT \S*\/archive\?/.test(head);
      if (put) client.pause();
      forwarded = forwarded.then(async () => {
        if (put) await beforePut();
        upstream.write(chunk);
        if (put) client.resume();
      });
    });
    client.on('end', () => void forwarded.then(() => upstream.end()));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return server;
}
