/**
 * requestArchive against the real engine at DOCKER_HOST, and against a socket server only for
 * replies the engine does not send (chunked framing to an HTTP/1.0 request, a reply cut short).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requestArchive,
  touchPages,
  touchSliceBytes,
} from '../../../src/docker/transport/archive-request.js';
import { dockerFromEnvironment } from '../../../src/docker/transport/docker-connection.js';
import { countManagedContainers, dockerTestImage } from '../docker-test-helpers.js';
import { oneFileTar } from './one-file-tar.js';

const engine = dockerFromEnvironment(process.env.DOCKER_HOST);
let handle: SandboxHandle | undefined;
let containerId = '';
let scratch = '';

beforeAll(async () => {
  handle = await createDockerSandboxAdapter({ image: dockerTestImage }).create();
  containerId = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-archive-request-'));
}, 180_000);

afterAll(async () => {
  await handle?.destroy();
  await rm(scratch, { recursive: true, force: true });
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
}, 180_000);

/** A unix socket server that answers every connection with `reply` (then closes). */
async function replyingServer(name: string, reply: Buffer): Promise<{ path: string; server: Server }> {
  const path = join(scratch, name);
  const server = createServer((socket) => {
    socket.once('data', () => socket.end(reply));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, server };
}

describe('requestArchive', () => {
  describe('when the path is a regular file', () => {
    it('returns its exact bytes', async () => {
      const data = randomBytes(3 * 2 ** 20 + 7);
      await handle?.client.writeFile('req/data.bin', data);
      const response = await requestArchive(engine, containerId, '/workspace/req/data.bin');
      expect(response.kind === 'entry' && response.entry.kind).toBe('file');
      expect(
        response.kind === 'entry' && response.entry.kind === 'file' && response.entry.data.equals(data),
      ).toBe(true);
    }, 60_000);
  });
  describe('when a size hint is given', () => {
    it('returns the exact bytes whether the hint is the size, smaller or larger', async () => {
      const data = randomBytes(9 * 2 ** 20 + 5);
      await handle?.client.writeFile('req/hinted.bin', data);
      for (const sizeHint of [data.length, data.length - 1, data.length + 4096, 0]) {
        const response = await requestArchive(engine, containerId, '/workspace/req/hinted.bin', { sizeHint });
        expect(
          response.kind === 'entry' && response.entry.kind === 'file' && response.entry.data.equals(data),
        ).toBe(true);
      }
    }, 60_000);
    it('returns the exact bytes when the data comes slowly after the head', async () => {
      const data = randomBytes(24 * 2 ** 20);
      const tar = await oneFileTar('f.bin', data);
      const path = join(scratch, 'slow.sock');
      const server = createServer((socket) => {
        socket.on('error', () => {}); // the reader hangs up once it has the file, before the padding
        socket.once('data', async () => {
          socket.write('HTTP/1.0 200 OK\r\nContent-Type: application/x-tar\r\n\r\n');
          for (let at = 0; at < tar.length && !socket.destroyed; at += 1024 * 1024) {
            socket.write(tar.subarray(at, at + 1024 * 1024));
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          socket.end();
        });
      });
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const response = await requestArchive({ socketPath: path }, 'c', '/f.bin', { sizeHint: data.length });
        expect(response.kind === 'entry' && response.entry.kind).toBe('file');
        expect(
          response.kind === 'entry' && response.entry.kind === 'file' && response.entry.data.equals(data),
        ).toBe(true);
      } finally {
        server.close();
      }
    }, 60_000);
  });
  describe('when the path is a directory or missing', () => {
    it('returns the directory entry, and status 404 with the engine message', async () => {
      await handle?.client.exec('mkdir -p /workspace/req/dir');
      expect(await requestArchive(engine, containerId, '/workspace/req/dir')).toEqual({
        kind: 'entry',
        entry: { kind: 'directory' },
      });
      const missing = await requestArchive(engine, containerId, '/workspace/req/nope');
      expect(missing.kind === 'status' && missing.statusCode).toBe(404);
      expect(missing.kind === 'status' && missing.message).not.toBe('');
    }, 60_000);
  });
  describe('when the container does not exist', () => {
    it('returns status 404', async () => {
      const response = await requestArchive(engine, 'sandkit-no-such-container', '/etc/hostname');
      expect(response.kind === 'status' && response.statusCode).toBe(404);
    });
  });
  describe('when the signal aborts', () => {
    it('rejects with the signal reason', async () => {
      const reason = new Error('stop');
      const controller = new AbortController();
      const pending = requestArchive(engine, containerId, '/workspace/req/data.bin', {
        signal: controller.signal,
      });
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
    });
  });
  describe('when the engine cannot be reached', () => {
    it('rejects with the socket error code', async () => {
      await expect(
        requestArchive({ socketPath: join(scratch, 'absent.sock') }, 'c', '/x'),
      ).rejects.toMatchObject({
        code: 'ENOENT',
      });
    });
  });
  describe('when the reply is chunked', () => {
    it('decodes the chunks (with extensions and trailers) into the exact bytes', async () => {
      const data = randomBytes(200_001);
      const tar = await oneFileTar('f.bin', data);
      const parts: Buffer[] = [Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')];
      for (let at = 0; at < tar.length; at += 7_000) {
        const piece = tar.subarray(at, at + 7_000);
        parts.push(Buffer.from(`${piece.length.toString(16)};x=1\r\n`), piece, Buffer.from('\r\n'));
      }
      parts.push(Buffer.from('0\r\nX-Trailer: 1\r\n\r\n'));
      const { path, server } = await replyingServer('chunked.sock', Buffer.concat(parts));
      try {
        const response = await requestArchive({ socketPath: path }, 'c', '/f.bin');
        expect(
          response.kind === 'entry' && response.entry.kind === 'file' && response.entry.data.equals(data),
        ).toBe(true);
      } finally {
        server.close();
      }
    });
  });
  describe('when the reply ends inside the file data', () => {
    it('rejects with RangeError naming the bytes that arrived', async () => {
      const tar = await oneFileTar('f.bin', randomBytes(100_000));
      const reply = Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), tar.subarray(0, 512 + 60_000)]);
      const { path, server } = await replyingServer('short.sock', reply);
      try {
        await expect(requestArchive({ socketPath: path }, 'c', '/f.bin')).rejects.toThrow(
          'the archive ended after 60000 of 100000 bytes',
        );
      } finally {
        server.close();
      }
    });
  });
});

describe('touchPages', () => {
  describe('while keepGoing holds', () => {
    it('writes zeros over the whole buffer, one slice per turn of the event loop', async () => {
      const buffer = Buffer.alloc(2 * touchSliceBytes + 5, 0xff);
      let turns = 0;
      touchPages(buffer, () => {
        turns += 1;
        return true;
      });
      expect(buffer[0]).toBe(0xff); // nothing before the first turn
      await expect.poll(() => buffer.every((byte) => byte === 0)).toBe(true);
      expect(turns).toBe(3);
    });
  });
  describe('when keepGoing turns false', () => {
    it('stops before the next slice, leaving the rest of the buffer as it was', async () => {
      const buffer = Buffer.alloc(3 * touchSliceBytes, 0xff);
      let turns = 0;
      touchPages(buffer, () => ++turns === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(buffer.subarray(0, touchSliceBytes).every((byte) => byte === 0)).toBe(true);
      expect(buffer.subarray(touchSliceBytes).every((byte) => byte === 0xff)).toBe(true);
    });
  });
});

describe('requestArchive on a path with a lone surrogate', () => {
  it('rejects with URIError before connecting (inside the socket callback it crashed the process)', async () => {
    await expect(requestArchive(engine, containerId, '/tmp/a\uD800')).rejects.toBeInstanceOf(URIError);
  });
});
