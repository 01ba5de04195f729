/**
 * requestArchive with a size hint pre-maps its result buffer while the engine is slow to answer.
 * Its own file, so that RSS is measured in a fresh worker: in archive-request.test.ts the earlier
 * tests' 9 and 24 MiB buffers could be collected during the wait and hide the growth.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestArchive } from '../../../src/docker/transport/archive-request.js';
import { oneFileTarParts } from './one-file-tar.js';

let scratch = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-archive-pages-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('requestArchive', () => {
  describe('when a size hint is given and the engine is slow to answer', () => {
    it("maps the result buffer's pages while it waits for the reply", async () => {
      // RSS counts resident pages whatever their size, so this holds with transparent huge pages too.
      const size = 64 * 2 ** 20;
      const data = randomBytes(size);
      const tar = await oneFileTarParts('f.bin', data); // no second copy of the data before the reply
      const path = join(scratch, 'slow-head.sock');
      let grewBeforeReply = 0;
      const before = process.memoryUsage().rss;
      const server = createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', () => {
          setTimeout(() => {
            grewBeforeReply = process.memoryUsage().rss - before;
            socket.end(Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), ...tar]));
          }, 1500); // long enough for 16 turns of the event loop on a loaded 2-core machine
        });
      });
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const response = await requestArchive({ socketPath: path }, 'c', '/f.bin', { sizeHint: size });
        expect(
          response.kind === 'entry' && response.entry.kind === 'file' && response.entry.data.equals(data),
        ).toBe(true);
        expect(grewBeforeReply).toBeGreaterThan(size / 2);
      } finally {
        server.close();
      }
    }, 60_000);
  });
});
