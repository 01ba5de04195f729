import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxError, SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { createPooledSandboxProvider } from '../../src/pool/pooled-sandbox-provider.js';
import { createSandboxQuota } from '../../src/pool/sandbox-quota.js';
import { createLocalSimulatedVendor } from '../support/local-simulated-vendor.js';
import { createCountingAdapter } from './counting-adapter.js';
import { sleep, trackPools, until } from './pool-test-helpers.js';

const { track, closeAll } = trackPools();

describe('createSandboxQuota', () => {
  it.each([0, -1, 1.5, Number.NaN])('throws SandkitError invalid_option for limit %s', (limit) => {
    const error = (() => {
      try {
        createSandboxQuota(limit);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
  });

  it.each([0, -1, Number.NaN, 1e-9])('throws SandkitError invalid_option for createsPerSecond %s', (rate) => {
    expect(() => createSandboxQuota(10, { createsPerSecond: rate })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('createsPerSecond'),
      }),
    );
  });

  describe('when the vendor accepts 10 creates a second and two pools ask for 14 sandboxes at once', () => {
    const vendorAt10PerSecond = (root: string) =>
      createLocalSimulatedVendor(root, {
        seed: 3,
        quota: 100,
        createsPerSecond: 10,
        createMs: { median: 5, sigma: 0.1, min: 5, max: 5 },
        roundTripMs: { min: 1, max: 1 },
      });
    const askFor14 = async (
      quota: ReturnType<typeof createSandboxQuota>,
      vendor: ReturnType<typeof vendorAt10PerSecond>,
    ) => {
      const pools = [1, 2].map(() =>
        track(
          createPooledSandboxProvider({
            adapter: vendor,
            max: 10,
            quota,
            createAttempts: 4,
            createRetryDelayMs: 50,
          }),
        ),
      );
      const started = performance.now();
      const sessions = await Promise.all(Array.from({ length: 14 }, (_, i) => pools[i % 2]!.acquire()));
      const tookMs = performance.now() - started;
      await Promise.all(sessions.map((session) => session.release({ destroy: true })));
      await closeAll();
      await vendor.settled();
      return tookMs;
    };

    it('spaces the creates 100 ms apart with createsPerSecond 10, and the vendor refuses none', async () => {
      const root = await mkdtemp(join(tmpdir(), 'sandkit-quota-pace-'));
      try {
        const vendor = vendorAt10PerSecond(root);
        const tookMs = await askFor14(createSandboxQuota(100, { createsPerSecond: 10 }), vendor);
        expect(vendor.stats().createRateRefusals).toBe(0);
        expect(vendor.stats().created).toBe(14);
        // the 14th create is sent 13 turns after the first
        expect(tookMs).toBeGreaterThanOrEqual(13 * 100);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    }, 30_000);

    it('without createsPerSecond sends them at once and the vendor refuses some (what the pacing avoids)', async () => {
      const root = await mkdtemp(join(tmpdir(), 'sandkit-quota-pace-'));
      try {
        const vendor = vendorAt10PerSecond(root);
        await askFor14(createSandboxQuota(100), vendor);
        expect(vendor.stats().createRateRefusals).toBeGreaterThan(0);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    }, 30_000);
  });

  describe('when the pools close while creates wait for their turn', () => {
    it('rejects every acquire at once and sends no create after the close', async () => {
      const adapter = createCountingAdapter();
      const quota = createSandboxQuota(10, { createsPerSecond: 2 });
      const pool = createPooledSandboxProvider({ adapter, max: 10, quota });
      const acquires = Array.from({ length: 4 }, () =>
        pool.acquire().then(
          (session) => session,
          (error: unknown) => error,
        ),
      );
      await until(() => adapter.creates === 1);
      const closed = performance.now();
      await pool.close();
      const outcomes = await Promise.all(acquires);
      expect(performance.now() - closed).toBeLessThan(1000);
      expect(adapter.creates).toBe(1);
      expect(outcomes.every((outcome) => SandboxError.isInstance(outcome))).toBe(true);
      expect(adapter.live).toBe(0);
      expect(quota.held()).toBe(0);
    });
  });

  describe('when three pools share a quota of 2', () => {
    it('never holds more than 2 sandboxes together, and a destroy in one pool serves a waiter in another', async () => {
      const adapter = createCountingAdapter({ createDelayMs: 5 });
      const quota = createSandboxQuota(2);
      const [a, b, c] = [1, 2, 3].map(() => track(createPooledSandboxProvider({ adapter, max: 2, quota })));
      const first = await a!.acquire();
      const second = await b!.acquire();
      let servedC = false;
      const third = c!.acquire().then((session) => {
        servedC = true;
        return session;
      });
      await sleep(30);
      expect(servedC).toBe(false);
      expect(quota.held()).toBe(2);
      await first.release({ destroy: true });
      const session = await third;
      expect(adapter.peak).toBe(2);
      await Promise.all([second.release({ destroy: true }), session.release({ destroy: true })]);
      await closeAll();
      expect(quota.held()).toBe(0);
      expect(adapter.live).toBe(0);
    });
  });

  describe("when the quota is full of another pool's idle sandboxes", () => {
    it('destroys the longest-idle one above min to serve the waiting acquire', async () => {
      const adapter = createCountingAdapter();
      const quota = createSandboxQuota(2);
      const a = track(createPooledSandboxProvider({ adapter, max: 2, quota }));
      const b = track(createPooledSandboxProvider({ adapter, max: 2, quota }));
      const [one, two] = [await a.acquire(), await a.acquire()];
      await one.release();
      await two.release();
      expect(a.stats().idle).toBe(2);
      const session = await b.acquire();
      expect(a.stats().idle).toBe(1);
      expect(adapter.handles.find((handle) => handle.id === one.id)?.destroyed).toBe(true);
      expect(adapter.peak).toBe(2);
      await session.release({ destroy: true });
    });

    it("keeps a pool's min warm and lets the other pool's acquire time out", async () => {
      const adapter = createCountingAdapter();
      const quota = createSandboxQuota(1);
      const a = track(createPooledSandboxProvider({ adapter, max: 1, min: 1, quota }));
      await until(() => a.stats().idle === 1);
      const b = track(createPooledSandboxProvider({ adapter, max: 1, quota, acquireTimeoutMs: 100 }));
      const error = await b.acquire().catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error) && error.code).toBe('pool_exhausted');
      expect(a.stats().idle).toBe(1);
    });
  });

  describe("when the vendor refuses a create in one pool and another pool's sandbox is destroyed", () => {
    it('retries the refused create at once, not after its backoff', async () => {
      const adapter = createCountingAdapter({ quota: 1 });
      // a limit above the vendor's quota: the vendor refuses, and the pools must learn a slot freed
      const quota = createSandboxQuota(2);
      const options = { adapter, max: 1, quota, createAttempts: 2, createRetryDelayMs: 20_000 };
      const a = track(createPooledSandboxProvider(options));
      const b = track(createPooledSandboxProvider(options));
      const first = await a.acquire();
      const waiting = b.acquire();
      await until(() => adapter.rateLimited === 1);
      const started = Date.now();
      await first.release({ destroy: true });
      const served = await waiting;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(b.stats()).toMatchObject({ rateLimited: 1, createRetries: 1 });
      await served.release({ destroy: true });
    });
  });

  describe('when a slot frees while a refused create is on its way back', () => {
    it('retries it at once instead of waiting out its backoff', async () => {
      const root = await mkdtemp(join(tmpdir(), 'sandkit-quota-'));
      try {
        // the vendor decides at once and answers after a 100 ms round trip, as E2B's API does
        const vendor = createLocalSimulatedVendor(root, {
          seed: 1,
          quota: 1,
          createMs: { median: 5, sigma: 0.1, min: 5, max: 5 },
          roundTripMs: { min: 100, max: 100 },
        });
        const pool = track(
          createPooledSandboxProvider({
            adapter: vendor,
            max: 2,
            createAttempts: 2,
            createRetryDelayMs: 20_000,
          }),
        );
        const first = await pool.acquire();
        // the destroy frees the vendor's slot at +100 ms; the create sent at +50 ms is refused, and
        // its 429 comes back at +150 ms, after the free: no retry was paused to be woken by it
        const released = first.release({ destroy: true });
        await sleep(50);
        const started = Date.now();
        const session = await pool.acquire();
        expect(Date.now() - started).toBeLessThan(2000);
        expect(pool.stats().rateLimited).toBe(1);
        expect(vendor.stats().rateLimited).toBe(1);
        await released;
        await session.release({ destroy: true });
        await vendor.settled();
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  });

  describe('when 600 cycles run over three pools with failing creates and destroys', () => {
    it('stays under the limit together and gives every slot back', async () => {
      let seed = 9;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const adapter = createCountingAdapter({ createDelayMs: 1, failCreate: () => random() < 0.2 });
      const quota = createSandboxQuota(3);
      const trio = [1, 2, 3].map((n) =>
        createPooledSandboxProvider({
          adapter,
          max: n + 1,
          min: n === 1 ? 1 : 0,
          quota,
          createAttempts: 2,
          createRetryDelayMs: 1,
        }),
      );
      let failures = 0;
      await Promise.all(
        Array.from({ length: 12 }, async (_, worker) => {
          for (let cycle = 0; cycle < 50; cycle++) {
            const pool = trio[(worker + cycle) % 3]!;
            const session = await pool.acquire().catch((error: unknown) => {
              if (!SandboxError.isInstance(error)) throw error;
              failures++;
              return undefined;
            });
            expect(quota.held()).toBeLessThanOrEqual(3);
            if (session) await session.release({ destroy: random() < 0.5 });
          }
        }),
      );
      await Promise.all(trio.map((pool) => pool.close()));
      expect(adapter.peak).toBeLessThanOrEqual(3);
      expect(adapter.live).toBe(0);
      expect(quota.held()).toBe(0);
      expect(failures).toBeGreaterThan(0);
    });
  });
});
