import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxError, SandkitError } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2BSandboxAdapter } from '../../src/e2b/index.js';
import { createStandInE2BAdapter } from './e2b-stand-in-adapter.js';

describe('createE2BSandboxAdapter', () => {
  describe('when options are invalid', () => {
    it('C16: rejects timeoutMs 0 instead of passing it on as "unlimited"', () => {
      expect(() => createE2BSandboxAdapter({ timeoutMs: 0 })).toThrowError(/0 as its short default/);
      try {
        createE2BSandboxAdapter({ timeoutMs: 0 });
      } catch (error) {
        expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      }
    });
  });

  describe('when a command times out (B22)', () => {
    const adapter = createStandInE2BAdapter();
    let handle: Awaited<ReturnType<typeof adapter.create>>;
    beforeAll(async () => {
      handle = await adapter.create();
    });
    afterAll(async () => {
      await handle.destroy();
    });

    it('B22: returns timedOut after about the timeout and leaves no process behind', async () => {
      const started = Date.now();
      // an unusual duration, so the /proc scan cannot see another test's sleep
      const result = await handle.client.exec('sleep 117.25', { timeoutMs: 2000 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(Date.now() - started).toBeLessThan(15_000);
      const check = await handle.client.exec(
        "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f 2>/dev/null; echo; done | grep -c '^sleep 117.25 $' || true",
      );
      expect(check.stdout.trim()).toBe('0');
    }, 30_000);

    it('B22: passes its own deadline to the SDK, so a command may outlive the SDK default', async () => {
      // The SDK would end a command after 60 s without an explicit timeoutMs; the adapter always
      // passes one. A 2 s command under a 300 s budget must finish with its output.
      const result = await handle.client.exec('sleep 2 && echo ok', { timeoutMs: 300_000 });
      expect(result.stdout).toBe('ok\n');
      expect(result.exitCode).toBe(0);
    }, 30_000);
  });

  describe('when E2B refuses the create with HTTP 429 (concurrency quota)', () => {
    it('throws SandboxError sandbox_rate_limited, which the pool retries, not sandbox_start_failed', async () => {
      const requests: string[] = [];
      const api = createServer((request, response) => {
        requests.push(`${request.method} ${request.url}`);
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            code: 429,
            message: 'You have reached the maximum number of concurrent sandboxes (100)',
          }),
        );
      });
      await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
      const previous = process.env.E2B_API_URL;
      process.env.E2B_API_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      try {
        const error = await createE2BSandboxAdapter({ apiKey: 'e2b_test_key' })
          .create()
          .catch((e: unknown) => e);
        expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_rate_limited');
        expect(requests.some((line) => /^POST \/(v2\/)?sandboxes$/.test(line))).toBe(true);
      } finally {
        if (previous === undefined) delete process.env.E2B_API_URL;
        else process.env.E2B_API_URL = previous;
        await new Promise((resolve) => api.close(resolve));
      }
    }, 30_000);
  });

  describe('when the sandbox is gone', () => {
    it('C16: reports sandbox_gone for all four operations when E2B answers 502', async () => {
      const handle = await createStandInE2BAdapter().create();
      try {
        await handle.standIn.disappear();
        for (const call of [
          () => handle.client.exec('true'),
          () => handle.client.exec('cat', { stdin: 'x' }),
          () => handle.client.readFile('a.txt'),
          () => handle.client.writeFile('a.txt', 'x'),
        ]) {
          const error = await call().catch((caught: unknown) => caught);
          expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_gone');
          expect((error as Error).message).toMatch(/acquire a new sandbox/);
        }
      } finally {
        await handle.destroy();
      }
    }, 30_000);

    it('reports sandbox_unavailable, not gone, when the sandbox cannot be reached at all', async () => {
      const handle = await createStandInE2BAdapter().create();
      await handle.stopStandIn();
      const error = await handle.client.exec('true').catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_unavailable');
      await handle.destroy().catch(() => undefined);
    }, 30_000);
  });

  describe("when the command's status file cannot be written", () => {
    it('returns the exit code from the shell, never a signal like SIG-121', async () => {
      const handle = await createStandInE2BAdapter().create();
      try {
        // A directory where the EXIT trap writes the status: the trap fails, as it does when the
        // command removed /tmp/sandkit-exec (which, on the stand-in, is the host's /tmp).
        const result = await handle.client.exec(
          'mkdir "/tmp/sandkit-exec/$SANDKIT_EXEC_ID.status"; echo "$SANDKIT_EXEC_ID"; exit 7',
        );
        const id = result.stdout.trim();
        expect(id).toMatch(/^[0-9a-f]+$/);
        const cleanup = await handle.client.exec(`rmdir /tmp/sandkit-exec/${id}.status`);
        expect(cleanup.exitCode).toBe(0);
        expect(result).toMatchObject({ exitCode: 7, signal: null, stderr: '' });
      } finally {
        await handle.destroy();
      }
    });
  });

  describe('when the timeout fires before the wrapper wrote the group id', () => {
    it('still ends every process the command started (pgid race)', async () => {
      const handle = await createStandInE2BAdapter().create();
      try {
        for (let round = 0; round < 4; round++) {
          const marker = `sandkitrace${round}x${Date.now()}`;
          const result = await handle.client.exec(
            `sh -c 'while true; do sleep 1; done' ${marker} & sleep 60`,
            { timeoutMs: 1 },
          );
          expect(result.timedOut).toBe(true);
          const left = await handle.client.exec(
            `sleep 0.5; grep -l -a -e '[${marker[0]}]${marker.slice(1)}' /proc/[0-9]*/cmdline 2>/dev/null | wc -l`,
          );
          expect(left.stdout.trim(), `round ${round}`).toBe('0');
        }
      } finally {
        await handle.destroy();
      }
    }, 120_000);
  });
});

describe.skipIf(!process.env.E2B_API_KEY)('E2B live (needs E2B_API_KEY)', () => {
  it('runs a command in a real E2B sandbox and kills it on timeout', async () => {
    const adapter = createE2BSandboxAdapter({ timeoutMs: 120_000 });
    const handle = await adapter.create();
    try {
      expect((await handle.client.exec('echo live')).stdout).toBe('live\n');
      const timedOut = await handle.client.exec('sleep 120', { timeoutMs: 3000 });
      expect(timedOut.timedOut).toBe(true);
      const left = await handle.client.exec("ps -eo args | grep -c '[s]leep 120' || true");
      expect(left.stdout.trim()).toBe('0');
    } finally {
      await handle.destroy();
    }
  }, 120_000);
});

describe('createE2BSandboxAdapter file requests', () => {
  describe('when fileRequestTimeoutMs is out of range', () => {
    it('throws SandkitError invalid_option and names the option', () => {
      for (const fileRequestTimeoutMs of [0, -1, Number.NaN])
        expect(() => createE2BSandboxAdapter({ fileRequestTimeoutMs })).toThrowError(
          /fileRequestTimeoutMs must be a positive/,
        );
    });
  });

  describe('when a file body takes longer than the request deadline', () => {
    it('passes the adapter deadline to the SDK in place of its 60 s default, for reads and writes', async () => {
      // 1 ms cannot carry 8 MiB over HTTP: the SDK's own 60 s default would let it through
      const tight = await createStandInE2BAdapter({ fileRequestTimeoutMs: 1 }).create();
      const roomy = await createStandInE2BAdapter().create();
      try {
        const body = new Uint8Array(8 * 1024 * 1024).fill(120);
        const write = await tight.client.writeFile('big.bin', body).catch((caught: unknown) => caught);
        expect(SandboxError.isInstance(write) && write.code).toBe('sandbox_unavailable');
        expect(await tight.client.exec('test -e big.bin')).toMatchObject({ exitCode: 1 });
        await roomy.client.writeFile('big.bin', body);
        expect((await roomy.client.readFile('big.bin')).byteLength).toBe(body.byteLength);
        await tight.client.exec(`head -c ${body.byteLength} /dev/zero > big.bin`);
        const read = await tight.client.readFile('big.bin').catch((caught: unknown) => caught);
        expect(SandboxError.isInstance(read) && read.code).toBe('sandbox_unavailable');
      } finally {
        await tight.destroy();
        await roomy.destroy();
      }
    }, 60_000);
  });

  describe('when the caller aborts a file request', () => {
    it('throws SandkitError aborted and leaves the target untouched', async () => {
      const handle = await createStandInE2BAdapter().create();
      try {
        await handle.client.writeFile('kept.txt', 'before');
        const controller = new AbortController();
        controller.abort();
        const write = await handle.client
          .writeFile('kept.txt', 'after', { signal: controller.signal })
          .catch((caught: unknown) => caught);
        expect(SandkitError.isInstance(write) && write.code).toBe('aborted');
        const read = await handle.client
          .readFile('kept.txt', { signal: controller.signal })
          .catch((caught: unknown) => caught);
        expect(SandkitError.isInstance(read) && read.code).toBe('aborted');
        expect(new TextDecoder().decode(await handle.client.readFile('kept.txt'))).toBe('before');
      } finally {
        await handle.destroy();
      }
    }, 30_000);
  });
});
