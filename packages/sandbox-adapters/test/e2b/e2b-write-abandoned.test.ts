import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { createE2BSandboxAdapter } from '../../src/e2b/index.js';
import { startE2BStandIn } from '../../src/e2b-stand-in/index.js';
import { startUploadHoldingProxy, type UploadHold } from './upload-holding-proxy.js';

/**
 * A stand-in sandbox behind a proxy that holds each upload's whole body before the stand-in gets
 * it (as E2B's proxy may): an abort then comes before the sandbox writes the staging file. The
 * stand-in's paths are the host's, so the staging files are checked on the host.
 */
async function heldSandbox(holds: Map<number, UploadHold>) {
  const standIn = await startE2BStandIn();
  let uploads = 0;
  const proxy = await startUploadHoldingProxy(standIn.url, () => holds.get(uploads++) ?? {});
  const handle = await createE2BSandboxAdapter({
    debug: true,
    sandboxUrl: proxy.url,
    workdir: standIn.root,
  }).create();
  const text = async (path: string) => new TextDecoder().decode(await handle.client.readFile(path));
  const close = async () => {
    await handle.destroy();
    await proxy.close();
    await standIn.close();
    // only this test's own staging files, never the shared directory
    for (const upload of proxy.uploads) await rm(upload.path, { force: true });
  };
  return { handle, proxy, text, close };
}

/** Upload hooks that abort `controller` once the proxy holds the body, then wait for the call to give up. */
function abortOnArrival(controller: AbortController, call: () => Promise<unknown>): UploadHold {
  return {
    async received() {
      controller.abort();
      await call().catch(() => undefined);
    },
  };
}

/**
 * Writes 8 MiB to `path` as upload number `upload`, aborted once the proxy holds the whole body;
 * returns what the call threw and the staging file the sandbox wrote after the client gave up.
 */
async function abandonUpload(
  sandbox: Awaited<ReturnType<typeof heldSandbox>>,
  holds: Map<number, UploadHold>,
  upload: number,
  path: string,
): Promise<{ error: unknown; leaked: string }> {
  const controller = new AbortController();
  let aborted: Promise<unknown> = Promise.resolve();
  holds.set(
    upload,
    abortOnArrival(controller, () => aborted),
  );
  aborted = sandbox.handle.client
    .writeFile(path, new Uint8Array(8 << 20).fill(97 + upload), { signal: controller.signal })
    .catch((caught: unknown) => caught);
  const error = await aborted;
  await sandbox.proxy.uploads[upload]?.done; // the sandbox wrote the file after the client gave up
  return { error, leaked: sandbox.proxy.uploads[upload]?.path ?? '' };
}

describe('createE2BSandboxAdapter writeFile', () => {
  describe('when an upload is aborted before the sandbox writes its staging file', () => {
    it('leaves it only until a later write sweeps it, and never sweeps a write still in flight', async () => {
      const holds = new Map<number, UploadHold>();
      const sandbox = await heldSandbox(holds);
      const { handle, proxy, text, close } = sandbox;
      let release = (): void => undefined;
      try {
        await handle.client.writeFile('kept.bin', 'before'); // upload 0
        // upload 1: written by the sandbox, its answer held: a write in flight
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let onWritten = (): void => undefined;
        const written = new Promise<void>((resolve) => {
          onWritten = resolve;
        });
        holds.set(1, {
          answered: async () => {
            onWritten();
            await released;
          },
        });
        const inFlight = handle.client.writeFile('second.txt', 'second');
        await written;
        // upload 2, started after it: aborted once the proxy holds all 8 MiB
        const { error, leaked } = await abandonUpload(sandbox, holds, 2, 'kept.bin');
        expect(SandkitError.isInstance(error) && error.code).toBe('aborted');
        const held = proxy.uploads[1]?.path ?? '';
        expect(existsSync(leaked), 'the aborted upload left its staging file').toBe(true);
        expect(existsSync(held)).toBe(true);
        expect(await text('kept.bin')).toBe('before');

        await handle.client.writeFile('third.txt', 'third'); // upload 3: its finishing command sweeps
        expect(existsSync(leaked), 'swept by the next write').toBe(false);
        expect(existsSync(held), "a concurrent write's staging file is kept").toBe(true);
        release();
        await inFlight;
        expect(existsSync(held)).toBe(false);
        expect([await text('second.txt'), await text('third.txt'), await text('kept.bin')]).toEqual([
          'second',
          'third',
          'before',
        ]);
      } finally {
        release();
        await close();
      }
    }, 60_000);

    it('is swept by the wrapper of a later command', async () => {
      const holds = new Map<number, UploadHold>();
      const sandbox = await heldSandbox(holds);
      const { handle, close } = sandbox;
      try {
        const { error, leaked } = await abandonUpload(sandbox, holds, 0, 'big.bin');
        expect(SandkitError.isInstance(error)).toBe(true);
        expect(existsSync(leaked)).toBe(true);
        expect(await handle.client.exec('echo ok')).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
        expect(existsSync(leaked)).toBe(false);
      } finally {
        await close();
      }
    }, 60_000);

    it('is swept by destroy in debug mode, where the sandbox outlives the handle', async () => {
      const holds = new Map<number, UploadHold>();
      const sandbox = await heldSandbox(holds);
      const { handle, close } = sandbox;
      try {
        const { error, leaked } = await abandonUpload(sandbox, holds, 0, 'big.bin');
        expect(SandkitError.isInstance(error)).toBe(true);
        expect(existsSync(leaked)).toBe(true);
        await handle.destroy();
        expect(existsSync(leaked)).toBe(false);
      } finally {
        await close();
      }
    }, 60_000);
  });
});
