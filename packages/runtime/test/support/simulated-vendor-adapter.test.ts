import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxError, type SandboxHandle } from '@sandkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalSimulatedVendor, type LocalSimulatedVendorOptions } from './local-simulated-vendor.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function vendor(overrides: Partial<LocalSimulatedVendorOptions> = {}) {
  const root = await mkdtemp(join(tmpdir(), 'sandkit-sim-vendor-'));
  roots.push(root);
  const adapter = createLocalSimulatedVendor(root, {
    seed: 3,
    quota: 4,
    createMs: { median: 5, sigma: 0.5, min: 2, max: 20 },
    roundTripMs: { min: 1, max: 3 },
    expiryLastCall: 3,
    ...overrides,
  });
  return { adapter, root };
}

const codeOf = (error: unknown) => (SandboxError.isInstance(error) ? error.code : error);

describe('createSimulatedVendorAdapter', () => {
  describe('when two vendors share a seed', () => {
    it('injects the same faults at the same create numbers', async () => {
      const outcomes = async () => {
        const { adapter } = await vendor({ createFailureRate: 0.3, quota: 100 });
        const seen: string[] = [];
        for (let n = 0; n < 12; n++) {
          const handle = await adapter.create().catch((error: unknown) => error);
          seen.push(SandboxError.isInstance(handle) ? handle.code : 'ok');
          if (!SandboxError.isInstance(handle)) await (handle as SandboxHandle).destroy();
        }
        await adapter.settled();
        return seen;
      };
      const first = await outcomes();
      expect(first).toContain('sandbox_start_failed');
      expect(await outcomes()).toEqual(first);
    });
  });

  describe('when the quota is full', () => {
    it('throws sandbox_rate_limited, and a destroy frees the slot', async () => {
      const { adapter, root } = await vendor({ quota: 2 });
      const a = await adapter.create();
      await adapter.create();
      expect(codeOf(await adapter.create().catch((e: unknown) => e))).toBe('sandbox_rate_limited');
      await a.destroy();
      const c = await adapter.create();
      expect(adapter.stats()).toMatchObject({ live: 2, peakLive: 2, rateLimited: 1 });
      await c.destroy();
      await adapter.settled();
      // the one sandbox still alive (its captured-output directory and owner file beside it do not count)
      const sandboxes = (await readdir(root)).filter(
        (entry) => !entry.endsWith('.logs') && !entry.endsWith('.owner.json'),
      );
      expect(sandboxes).toHaveLength(1);
    });
  });

  describe('when creates come faster than createsPerSecond', () => {
    it('refuses the extra ones with sandbox_rate_limited', async () => {
      const { adapter } = await vendor({ quota: 10, createsPerSecond: 2 });
      const results = await Promise.all([1, 2, 3].map(() => adapter.create().catch((e: unknown) => e)));
      expect(results.map(codeOf).filter((code) => code === 'sandbox_rate_limited')).toHaveLength(1);
      expect(adapter.stats().createRateRefusals).toBe(1);
    });
  });

  describe('when a sandbox expires mid-run', () => {
    it('throws sandbox_gone from the call it dies at on, frees its slot and removes its files', async () => {
      const { adapter, root } = await vendor({ expiryRate: 1, expiryLastCall: 2 });
      const handle = await adapter.create();
      expect((await handle.client.exec('echo alive')).stdout).toBe('alive\n');
      expect(codeOf(await handle.client.exec('true').catch((e: unknown) => e))).toBe('sandbox_gone');
      expect(codeOf(await handle.client.readFile('x').catch((e: unknown) => e))).toBe('sandbox_gone');
      expect(adapter.stats()).toMatchObject({ live: 0, expired: 1, liveSandboxIds: [] });
      await handle.destroy();
      await adapter.settled();
      expect(await readdir(root)).toEqual([]);
    });
  });
});
