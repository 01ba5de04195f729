import { SandboxError, type SandboxHandle, type SandboxSession, SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createPooledSandboxProvider } from '../../src/pool/pooled-sandbox-provider.js';
import { type CountingHandle, createCountingAdapter } from './counting-adapter.js';
import { sleep, trackPools, until } from './pool-test-helpers.js';

const { track } = trackPools();

describe('createPooledSandboxProvider', () => {
  describe('when many acquires run at once', () => {
    it('never has more than max sandboxes alive', async () => {
      const adapter = createCountingAdapter({ createDelayMs: 3 });
      const pool = track(createPooledSandboxProvider({ adapter, max: 3 }));
      let peakStat = 0;
      await Promise.all(
        Array.from({ length: 25 }, async (_, i) => {
          const session = await pool.acquire();
          peakStat = Math.max(peakStat, pool.stats().alive);
          await sleep(1 + (i % 4));
          await session.release({ destroy: i % 3 === 0 });
        }),
      );
      expect(adapter.peak).toBe(3);
      expect(peakStat).toBeLessThanOrEqual(3);
    });
  });

  describe('when min is set', () => {
    it('keeps min sandboxes warm and refills after a destroy', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, min: 2, max: 4 }));
      await until(() => pool.stats().idle === 2);
      expect(adapter.live).toBe(2);
      const session = await pool.acquire();
      expect(adapter.creates).toBe(2);
      await session.release({ destroy: true });
      await until(() => pool.stats().idle === 2);
      expect(adapter.live).toBe(2);
      expect(adapter.creates).toBe(3);
    });

    it('destroys idle sandboxes above min after idleTimeoutMs', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, min: 1, max: 3, idleTimeoutMs: 30 }));
      const sessions = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
      for (const s of sessions) await s.release();
      expect(adapter.live).toBe(3);
      await until(() => adapter.live === 1);
      await sleep(60);
      expect(adapter.live).toBe(1);
    });
  });

  describe('when every sandbox is in use', () => {
    it('serves waiting acquires first-come first-served', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 1 }));
      const first = await pool.acquire();
      const order: string[] = [];
      const waiting = ['a', 'b', 'c'].map((name) =>
        pool.acquire().then(async (s) => {
          order.push(name);
          await sleep(1);
          await s.release();
        }),
      );
      await sleep(5);
      expect(pool.stats().waiting).toBe(3);
      await first.release();
      await Promise.all(waiting);
      expect(order).toEqual(['a', 'b', 'c']);
      expect(adapter.creates).toBe(1);
    });

    it('rejects an acquire with SandboxError pool_exhausted after acquireTimeoutMs', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 1, acquireTimeoutMs: 40 }));
      const held = await pool.acquire();
      const started = Date.now();
      const error = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('pool_exhausted');
      expect(Date.now() - started).toBeGreaterThanOrEqual(35);
      expect(pool.stats().waiting).toBe(0);
      await held.release();
      const next = await pool.acquire();
      expect(next.id).toBe(held.id);
      await next.release();
    });
  });

  describe('when acquireTimeoutMs is beyond what a timer holds', () => {
    it('R09: waits without a timer for Infinity (no timeout) instead of failing after 1 ms', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 1, acquireTimeoutMs: Infinity }));
      const held = await pool.acquire();
      const waiting = pool.acquire();
      let settled = false;
      void waiting.then(
        () => {
          settled = true;
        },
        () => {
          settled = true;
        },
      );
      await sleep(60);
      expect(settled).toBe(false);
      await held.release();
      const next = await waiting;
      expect(next.id).toBe(held.id);
      await next.release();
    });

    it.each([2 ** 31, 1e12, Number.NaN, -1])(
      'R09: refuses acquireTimeoutMs %s with SandkitError invalid_option naming the limit',
      (acquireTimeoutMs) => {
        const adapter = createCountingAdapter();
        let error: unknown;
        try {
          createPooledSandboxProvider({ adapter, max: 1, acquireTimeoutMs });
        } catch (e) {
          error = e;
        }
        expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
        expect((error as Error).message).toContain(
          'acquireTimeoutMs must be a positive number of milliseconds up to 2147483647',
        );
        expect((error as Error).message).toContain('Infinity for no timeout');
      },
    );

    it('R09: refuses a closeTimeoutMs over 2^31 - 1 ms, and Infinity there', () => {
      const adapter = createCountingAdapter();
      for (const closeTimeoutMs of [2 ** 31, Infinity])
        expect(() => createPooledSandboxProvider({ adapter, max: 1, closeTimeoutMs })).toThrow(
          /closeTimeoutMs must be a positive number of milliseconds up to 2147483647/,
        );
    });
  });

  describe('when a sandbox is bad', () => {
    it('destroys and replaces a sandbox that fails its health check, never lending it again', async () => {
      const adapter = createCountingAdapter();
      const sick = new Set<string>();
      const pool = track(
        createPooledSandboxProvider({ adapter, max: 2, healthCheck: (h: SandboxHandle) => !sick.has(h.id) }),
      );
      const first = await pool.acquire();
      const badId = first.id;
      await first.release();
      sick.add(badId);
      const lent: string[] = [];
      for (let i = 0; i < 5; i++) {
        const s = await pool.acquire();
        lent.push(s.id);
        await s.release();
      }
      expect(lent).not.toContain(badId);
      expect((adapter.handles[0] as CountingHandle).destroyed).toBe(true);
      expect(adapter.live).toBe(1);
    });

    it('treats a throwing health check like a failed one', async () => {
      const adapter = createCountingAdapter();
      const errors: unknown[] = [];
      const pool = track(
        createPooledSandboxProvider({
          adapter,
          max: 1,
          onError: (e) => errors.push(e),
          healthCheck: (h) => {
            if (h.id === 'counting-1') throw new Error('probe failed');
            return true;
          },
        }),
      );
      await (await pool.acquire()).release();
      const second = await pool.acquire();
      expect(second.id).toBe('counting-2');
      expect(errors).toHaveLength(1);
      await second.release();
    });

    it('destroys a sandbox whose reset fails instead of returning it', async () => {
      const adapter = createCountingAdapter();
      const pool = track(
        createPooledSandboxProvider({
          adapter,
          max: 2,
          reset: (h) => {
            if (h.id === 'counting-1') throw new Error('git clean failed');
          },
        }),
      );
      const first = await pool.acquire();
      await first.release();
      expect((adapter.handles[0] as CountingHandle).destroyed).toBe(true);
      const second = await pool.acquire();
      expect(second.id).toBe('counting-2');
      await second.release();
      const third = await pool.acquire();
      expect(third.id).toBe('counting-2');
      await third.release();
    });

    it('destroys a sandbox released with { destroy: true }', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 1 }));
      const first = await pool.acquire();
      await first.release({ destroy: true });
      expect(adapter.live).toBe(0);
      const second = await pool.acquire();
      expect(second.id).not.toBe(first.id);
      await second.release();
    });
  });

  describe('when create fails', () => {
    it("rejects the waiting acquire with the adapter's SandboxError instead of retrying", async () => {
      const adapter = createCountingAdapter({ failCreate: (n) => n === 1 });
      const pool = track(createPooledSandboxProvider({ adapter, max: 1 }));
      const error = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_start_failed');
      expect(adapter.creates).toBe(1);
      const next = await pool.acquire();
      expect(next.id).toBe('counting-2');
      await next.release();
    });
  });

  describe('when createAttempts allows retries', () => {
    it('retries a failed create after a backoff and lends the sandbox of the retry', async () => {
      const adapter = createCountingAdapter({ failCreate: (n) => n <= 2 });
      const pool = track(
        createPooledSandboxProvider({ adapter, max: 1, createAttempts: 3, createRetryDelayMs: 5 }),
      );
      const session = await pool.acquire();
      expect(session.id).toBe('counting-3');
      expect(pool.stats().createRetries).toBe(2);
      await session.release();
    });

    it("rejects the acquire with the vendor's error once every attempt failed", async () => {
      const adapter = createCountingAdapter({ failCreate: () => true });
      const pool = track(
        createPooledSandboxProvider({ adapter, max: 1, createAttempts: 3, createRetryDelayMs: 5 }),
      );
      const error = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_start_failed');
      expect(adapter.creates).toBe(3);
      expect(pool.stats()).toMatchObject({ alive: 0, creating: 0, createRetries: 2 });
    });

    it('does not retry an error that is not transient', async () => {
      const adapter = createCountingAdapter();
      adapter.create = () =>
        Promise.reject(new SandkitError({ code: 'invalid_option', message: 'bad template' }));
      const pool = track(createPooledSandboxProvider({ adapter, max: 1, createAttempts: 5 }));
      const error = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_start_failed');
      expect(pool.stats().createRetries).toBe(0);
    });

    it('retries a rate-limited create as soon as one of its sandboxes is destroyed, not after the backoff', async () => {
      const adapter = createCountingAdapter({ quota: 2 });
      const pool = track(
        createPooledSandboxProvider({ adapter, max: 4, createAttempts: 2, createRetryDelayMs: 20_000 }),
      );
      const first = await pool.acquire();
      const second = await pool.acquire();
      const third = pool.acquire();
      await until(() => adapter.rateLimited === 1);
      const started = Date.now();
      await first.release({ destroy: true });
      const served = await third;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(adapter.peak).toBe(2);
      expect(pool.stats()).toMatchObject({ rateLimited: 1, createRetries: 1 });
      await Promise.all([second.release(), served.release()]);
    });

    it('keeps retrying rate limits without using up attempts until the acquire times out', async () => {
      const adapter = createCountingAdapter({ quota: 0 });
      const pool = track(
        createPooledSandboxProvider({
          adapter,
          max: 1,
          createAttempts: 2,
          createRetryDelayMs: 5,
          createRetryMaxDelayMs: 10,
          acquireTimeoutMs: 300,
        }),
      );
      const error = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('pool_exhausted');
      expect(adapter.rateLimited).toBeGreaterThan(5);
      await until(() => pool.stats().creating === 0);
    });

    it('ends a paused retry at close() and rejects its acquire with pool_closed', async () => {
      const adapter = createCountingAdapter({ failCreate: () => true });
      const pool = createPooledSandboxProvider({
        adapter,
        max: 1,
        createAttempts: 3,
        createRetryDelayMs: 60_000,
      });
      const pending = pool.acquire().catch((e: unknown) => e);
      await until(() => pool.stats().createRetries === 1);
      const started = Date.now();
      await pool.close();
      expect(Date.now() - started).toBeLessThan(2000);
      const error = await pending;
      expect(SandboxError.isInstance(error) && error.code).toBe('pool_closed');
      expect(pool.stats().alive).toBe(0);
    });
  });

  describe('when a session is released twice', () => {
    it('throws SandkitError already_released and returns the sandbox only once', async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 2 }));
      const session = await pool.acquire();
      await session.release();
      const error = await session.release().catch((e: unknown) => e);
      expect(SandkitError.isInstance(error) && error.code).toBe('already_released');
      expect(pool.stats().idle).toBe(1);
      const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
      expect(a.id).not.toBe(b.id);
      await a.release();
      await b.release();
    });
  });

  describe('when acquire passes expectedDurationMs', () => {
    it("extends the sandbox's lifetime through the handle's extendLifetime hook", async () => {
      const adapter = createCountingAdapter();
      const pool = track(createPooledSandboxProvider({ adapter, max: 1 }));
      const session = await pool.acquire({ expectedDurationMs: 600_000 });
      await session.release();
      await (await pool.acquire()).release();
      expect((adapter.handles[0] as CountingHandle).extendedBy).toEqual([600_000]);
    });

    it('lends the first sandbox of an adapter whose capabilities say it has no lifetime (local), without extending it', async () => {
      // The local handle's extendLifetime throws capability_unsupported: calling it made every
      // create look unhealthy, and acquire created and destroyed sandboxes forever.
      const local = createLocalSandboxAdapter();
      let creates = 0;
      const adapter = {
        name: local.name,
        capabilities: local.capabilities,
        create: (options?: Parameters<typeof local.create>[0]) => {
          creates++;
          return local.create(options);
        },
      };
      const pool = track(createPooledSandboxProvider({ adapter, max: 1 }));
      const session = await pool.acquire({ expectedDurationMs: 600_000 });
      expect((await session.client.exec('echo ok')).stdout).toBe('ok\n');
      await session.release({ destroy: true });
      expect(creates).toBe(1);
    });
  });

  describe('close', () => {
    it('rejects new and waiting acquires with pool_closed, waits for sessions in use, destroys all', async () => {
      const adapter = createCountingAdapter();
      const pool = createPooledSandboxProvider({ adapter, min: 1, max: 2 });
      const inUse = await pool.acquire();
      const second = await pool.acquire();
      const waiting = pool.acquire().catch((e: unknown) => e);
      await sleep(2);
      expect(pool.stats().waiting).toBe(1);
      let closed = false;
      const closing = pool.close().then(() => {
        closed = true;
      });
      const late = await pool.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(late) && late.code).toBe('pool_closed');
      const waitingError = await waiting;
      expect(SandboxError.isInstance(waitingError) && waitingError.code).toBe('pool_closed');
      await second.release();
      await sleep(20);
      expect(closed).toBe(false);
      expect(adapter.live).toBeGreaterThan(0);
      await inUse.release();
      await closing;
      expect(adapter.live).toBe(0);
      expect(pool.stats()).toMatchObject({ alive: 0, closed: true });
    });

    it('destroys sandboxes still in use after closeTimeoutMs, and a late release is harmless', async () => {
      const adapter = createCountingAdapter();
      const pool = createPooledSandboxProvider({ adapter, max: 1, closeTimeoutMs: 40 });
      const held = await pool.acquire();
      const started = Date.now();
      await pool.close();
      expect(Date.now() - started).toBeGreaterThanOrEqual(35);
      expect(adapter.live).toBe(0);
      await expect(held.release()).resolves.toBeUndefined();
    });
  });

  describe('when 1,000 cycles run with injected failures everywhere', () => {
    it('ends with 0 sandboxes alive and no unhandled rejection', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown): void => {
        unhandled.push(reason);
      };
      process.on('unhandledRejection', onUnhandled);
      try {
        const adapter = createCountingAdapter({
          failCreate: (n) => n % 7 === 0,
          failDestroy: (h, attempt) => h.serial % 3 === 0 && attempt === 1,
        });
        let checks = 0;
        let resets = 0;
        const pool = createPooledSandboxProvider({
          adapter,
          min: 2,
          max: 4,
          acquireTimeoutMs: 5_000,
          healthCheck: () => ++checks % 5 !== 0,
          reset: () => {
            if (++resets % 11 === 0) throw new Error('injected reset failure');
          },
        });
        let cycles = 0;
        let acquireFailures = 0;
        let peak = 0;
        await Promise.all(
          Array.from({ length: 8 }, async (_, worker) => {
            while (cycles < 1000) {
              cycles++;
              let session: SandboxSession;
              try {
                session = await pool.acquire();
              } catch (error) {
                expect(SandboxError.isInstance(error)).toBe(true);
                acquireFailures++;
                continue;
              }
              peak = Math.max(peak, adapter.live);
              if ((cycles + worker) % 4 === 0) await Promise.resolve();
              await session.release({ destroy: cycles % 13 === 0 });
            }
          }),
        );
        await pool.close();
        await sleep(10);
        expect(adapter.live).toBe(0);
        expect(peak).toBeLessThanOrEqual(4);
        expect(acquireFailures).toBeGreaterThan(0);
        expect(adapter.creates).toBeGreaterThan(50);
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });
});
