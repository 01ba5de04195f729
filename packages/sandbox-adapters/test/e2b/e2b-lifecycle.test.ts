/**
 * The E2B adapter outside debug mode, against the fake of E2B's REST API and proxy (issue 13 items
 * 1 and 2): create, extendLifetime, pause, resume, destroy, and the API's 401, 404 and 429.
 */
import { SandboxError } from '@sandkit/core';
import { AuthenticationError, RateLimitError, Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2BSandboxAdapter } from '../../src/e2b/index.js';
import { type E2BApiFake, startE2BApiFake } from '../../src/e2b-stand-in/index.js';
import { createFakeCloudE2BAdapter, fakeApiKey } from './e2b-api-fake-adapter.js';
import { createStandInE2BAdapter } from './e2b-stand-in-adapter.js';

let fake: E2BApiFake;
beforeAll(async () => {
  fake = await startE2BApiFake({ apiKey: fakeApiKey, maxSandboxes: 3 });
});
afterAll(async () => {
  await fake.close();
});

const sdkOptions = () => ({ apiKey: fakeApiKey, apiUrl: fake.url, sandboxUrl: fake.url });

describe('startE2BApiFake (through the e2b SDK)', () => {
  it('creates with template, metadata and lifetime, lists by metadata, and kills (404 after)', async () => {
    const sandbox = await Sandbox.create('base', {
      ...sdkOptions(),
      timeoutMs: 60_000,
      metadata: { suite: 'lifecycle-a' },
    });
    const listed = await Sandbox.list({
      ...sdkOptions(),
      query: { metadata: { suite: 'lifecycle-a' } },
    }).nextItems();
    expect(listed.map((info) => info.sandboxId)).toEqual([sandbox.sandboxId]);
    const record = fake.sandboxes.get(sandbox.sandboxId);
    expect(record?.endAt).toBeGreaterThan(Date.now() + 55_000);
    expect((await sandbox.commands.run('echo ok')).stdout).toBe('ok\n');
    expect(await sandbox.kill()).toBe(true);
    expect(await sandbox.kill()).toBe(false); // the API's 404
    expect(await sandbox.isRunning()).toBe(false); // the proxy's 502
  });

  it('answers 401 for a wrong key, 404 for an unknown template, 429 over the limit', async () => {
    await expect(Sandbox.create({ ...sdkOptions(), apiKey: 'e2b_wrong' })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    await expect(Sandbox.create('no-such-template', sdkOptions())).rejects.toThrow(/not found/);
    const made = await Promise.all([1, 2, 3].map(() => Sandbox.create(sdkOptions())));
    try {
      await expect(Sandbox.create(sdkOptions())).rejects.toBeInstanceOf(RateLimitError);
    } finally {
      await Promise.all(made.map((sandbox) => sandbox.kill()));
    }
  });

  it('kills a sandbox when its lifetime ends', async () => {
    const sandbox = await Sandbox.create({ ...sdkOptions(), timeoutMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.sandboxes.get(sandbox.sandboxId)?.state).toBe('killed');
    expect(await sandbox.isRunning()).toBe(false);
  });

  it("resumes a paused sandbox with E2B's 15 s default when connect sends no timeout", async () => {
    const sandbox = await Sandbox.create({ ...sdkOptions(), timeoutMs: 300_000 });
    await sandbox.pause();
    await Sandbox.connect(sandbox.sandboxId, sdkOptions());
    const endAt = fake.sandboxes.get(sandbox.sandboxId)?.endAt ?? 0;
    expect(endAt - Date.now()).toBeLessThanOrEqual(15_000);
    await sandbox.kill();
  });
});

describe('createE2BSandboxAdapter (outside debug mode)', () => {
  it('creates through the API with the template, metadata and lifetime, and destroy kills it', async () => {
    const handle = await createFakeCloudE2BAdapter(fake, {
      template: 'base',
      timeoutMs: 120_000,
      metadata: { task: 't1' },
    }).create();
    const record = fake.sandboxes.get(handle.id);
    expect(record).toMatchObject({
      templateId: 'base',
      state: 'running',
      metadata: { task: 't1', 'sandkit.managed': 'true' },
    });
    expect((record?.endAt ?? 0) - Date.now()).toBeGreaterThan(110_000);
    expect((await handle.client.exec('id -un')).exitCode).toBe(0);
    await handle.destroy();
    expect(record?.state).toBe('killed');
    await expect(handle.destroy()).resolves.toBeUndefined();
  });

  it('extendLifetime sets the remaining lifetime through the API', async () => {
    const handle = await createFakeCloudE2BAdapter(fake, { timeoutMs: 30_000 }).create();
    try {
      await handle.extendLifetime(600_000);
      const endAt = fake.sandboxes.get(handle.id)?.endAt ?? 0;
      expect(endAt - Date.now()).toBeGreaterThan(590_000);
    } finally {
      await handle.destroy();
    }
  });

  it('pause makes every call sandbox_gone; resume brings back files and processes with the adapter lifetime', async () => {
    const handle = await createFakeCloudE2BAdapter(fake, { timeoutMs: 200_000 }).create();
    const sleeping =
      "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f 2>/dev/null; echo; done | grep -c -x -F 'sleep 45.5 ' || true";
    try {
      await handle.client.writeFile('kept.txt', 'still here');
      await handle.client.exec('sleep 45.5 &');
      await handle.pause();
      expect(fake.sandboxes.get(handle.id)?.state).toBe('paused');
      const error = await handle.client.exec('true').catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_gone');
      await handle.resume();
      const endAt = fake.sandboxes.get(handle.id)?.endAt ?? 0;
      expect(endAt - Date.now()).toBeGreaterThan(190_000); // not E2B's 15 s default
      expect(new TextDecoder().decode(await handle.client.readFile('kept.txt'))).toBe('still here');
      expect((await handle.client.exec(sleeping)).stdout.trim()).toBe('1');
    } finally {
      await handle.destroy();
    }
  });

  it('reports sandbox_gone from extendLifetime, pause and resume once E2B killed the sandbox', async () => {
    const handle = await createFakeCloudE2BAdapter(fake, { timeoutMs: 1000 }).create();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const call of [() => handle.extendLifetime(60_000), () => handle.pause(), () => handle.resume()]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_gone');
    }
    await handle.destroy();
  });

  it('throws sandbox_start_failed saying what to check for a wrong key, an unknown template and the 429 limit', async () => {
    for (const options of [{ apiKey: 'e2b_wrong' }, { template: 'no-such-template' }]) {
      const error = await createFakeCloudE2BAdapter(fake, options)
        .create()
        .catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_start_failed');
      expect((error as Error).message).toMatch(/E2B_API_KEY and the template/);
    }
  });

  it('refuses pause and resume in debug mode, where there is no API', async () => {
    const handle = await createStandInE2BAdapter().create();
    try {
      const error = await handle.pause().catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('capability_unsupported');
      expect((error as Error).message).toMatch(/adapters that can: docker, e2b/);
    } finally {
      await handle.destroy();
    }
    expect(() => createE2BSandboxAdapter({ timeoutMs: 0 })).toThrow(/0 as its short default/);
  });
});
