/**
 * The pool's use of the E2B adapter's lifetime control, through the real `e2b` SDK against the
 * fake of E2B's REST API and proxy (issue 13 item 2): acquiring with an expected duration extends
 * the sandbox's lifetime in the API, and a sandbox E2B killed meanwhile is replaced.
 */
import { createE2BSandboxAdapter } from '@sandkit/sandbox-adapters/e2b';
import { type E2BApiFake, startE2BApiFake } from '@sandkit/sandbox-adapters/e2b-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPooledSandboxProvider } from '../../src/pool/pooled-sandbox-provider.js';

const apiKey = 'e2b_sandkit_pool_test';
let fake: E2BApiFake;
beforeAll(async () => {
  fake = await startE2BApiFake({ apiKey });
});
afterAll(async () => {
  await fake.close();
});

describe('createPooledSandboxProvider with the E2B adapter', () => {
  it('extends the lifetime on acquire with expectedDurationMs, and replaces a sandbox E2B killed', async () => {
    const adapter = createE2BSandboxAdapter({
      apiKey,
      apiUrl: fake.url,
      sandboxUrl: fake.url,
      timeoutMs: 30_000,
      workdir: '/tmp',
    });
    const pool = createPooledSandboxProvider({ adapter, min: 0, max: 1 });
    try {
      const first = await pool.acquire({ expectedDurationMs: 600_000 });
      const endAt = fake.sandboxes.get(first.id)?.endAt ?? 0;
      expect(endAt - Date.now()).toBeGreaterThan(590_000);
      expect((await first.client.exec('echo pooled')).stdout).toBe('pooled\n');
      await first.release();

      // E2B kills the idle sandbox behind the pool's back; the next acquire's extendLifetime meets a
      // 404, so the pool destroys it and lends a new one.
      const killed = await fetch(`${fake.url}/sandboxes/${first.id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': apiKey },
      });
      expect(killed.status).toBe(204);
      const second = await pool.acquire({ expectedDurationMs: 120_000 });
      expect(second.id).not.toBe(first.id);
      expect((fake.sandboxes.get(second.id)?.endAt ?? 0) - Date.now()).toBeGreaterThan(110_000);
      expect((await second.client.exec('echo again')).stdout).toBe('again\n');
      await second.release();
    } finally {
      await pool.close();
    }
    expect([...fake.sandboxes.values()].every((sandbox) => sandbox.state === 'killed')).toBe(true);
  }, 60_000);
});
