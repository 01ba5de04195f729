/**
 * A pool of warm sandboxes over one adapter.
 *
 * Written here rather than on generic-pool 3.9: when the factory's `create()` rejects, generic-pool
 * emits `factoryCreateError` and immediately retries for the waiting acquire, which never sees the
 * error (it hangs until its timeout while the vendor is hammered). The composite provider needs the
 * vendor's `SandboxError` to reach `acquire()` so it can fall back. generic-pool also has no
 * async reset-on-release, no abortable acquire and no deadline on `drain()`.
 * @module
 */
import {
  type SandboxAcquireOptions,
  SandboxError,
  type SandboxHandle,
  type SandboxProvider,
  type SandboxSession,
  SandkitErrorCode,
} from '@sandkit/core';
import { lendSession } from '../provider/lend-session.js';
import {
  type NormalizedPoolOptions,
  normalizePoolOptions,
  type PooledSandboxProviderOptions,
} from './normalize-pool-options.js';
import { classifyCreateFailure, createRetryDelayMs } from './create-retry.js';
import { abortedError, closedError, exhaustedError, startFailed } from './pool-errors.js';

/** A snapshot of a pool's counts. */
export interface PoolStats {
  /** Every sandbox the pool holds: idle + inUse + creating + checking + destroying. Never above `max`. */
  alive: number;
  idle: number;
  inUse: number;
  creating: number;
  /** In a health check, lifetime extension or reset. */
  checking: number;
  destroying: number;
  /** Acquires waiting for a sandbox. */
  waiting: number;
  min: number;
  max: number;
  closed: boolean;
  /** Creates tried again after a failure or a rate limit, since the pool was made. */
  createRetries: number;
  /** Creates the vendor refused with `sandbox_rate_limited`, since the pool was made. */
  rateLimited: number;
}

/** A {@link SandboxProvider} that keeps sandboxes warm. */
export interface PooledSandboxProvider extends SandboxProvider {
  stats(): PoolStats;
}

/** A vendor hook: handles whose sandbox has a lifetime (E2B) may expose this to extend it, in ms. */
interface ExtendableHandle extends SandboxHandle {
  extendLifetime?(durationMs: number): Promise<void>;
}

interface Entry {
  handle: ExtendableHandle;
  idleTimer?: NodeJS.Timeout;
}

interface Waiter {
  settled: boolean;
  expectedDurationMs: number | undefined;
  resolve(session: SandboxSession): void;
  fail(error: unknown): void;
}

/**
 * Creates a pooled provider: at most `max` sandboxes alive, `min` kept warm, waiting acquires
 * served first-come first-served. With a shared `quota` (`createSandboxQuota`), the pools
 * sharing it hold at most its limit together.
 *
 * - `acquire()` lends an idle sandbox (after `healthCheck`), or creates one when fewer than `max`
 *   are alive, or waits. A failed `create()` rejects the oldest waiting acquire with the vendor's
 *   `SandboxError` (other errors are wrapped as `sandbox_start_failed`), unless `createAttempts`
 *   allows a retry: transient failures are retried with an exponential backoff, rate limits
 *   (`sandbox_rate_limited`) as soon as one of the pool's sandboxes is destroyed. A quota made with
 *   `createsPerSecond` spaces every create (retries too) by `1000 / createsPerSecond` ms.
 *   With `expectedDurationMs`, a handle exposing `extendLifetime(ms)` is extended before lending.
 * - `release()` runs `reset` and returns the sandbox to the idle set; `release({ destroy: true })`,
 *   a failed reset or a failed health check destroy it, and `min` is refilled.
 * - `close()` rejects waiting and new acquires, waits up to `closeTimeoutMs` for lent sandboxes,
 *   then destroys every sandbox. Idempotent.
 *
 * @throws SandkitError `invalid_option` for bad options (see {@link normalizePoolOptions}).
 * @throws SandboxError `pool_exhausted` from `acquire()` after `acquireTimeoutMs`, `pool_closed`
 *   after `close()`, or the adapter's error when the sandbox made for it could not be created.
 * @throws SandkitError `aborted` from `acquire()` when its signal aborts.
 */
export function createPooledSandboxProvider(options: PooledSandboxProviderOptions): PooledSandboxProvider {
  return new SandboxPool(normalizePoolOptions(options));
}

class SandboxPool implements PooledSandboxProvider {
  readonly name: string;
  private readonly idle: Entry[] = [];
  private readonly lent = new Set<Entry>();
  private readonly waiters: Waiter[] = [];
  private readonly listeners = new Set<() => void>();
  private creating = 0;
  private checking = 0;
  private destroying = 0;
  private closing: Promise<void> | undefined;
  /** Create retries paused on their backoff; `close()` wakes them all. */
  private readonly pauses = new Set<() => void>();
  /** Retries paused after a rate limit, woken one per destroyed sandbox. */
  private readonly slotWaiters: Array<() => void> = [];
  private readonly counts = { createRetries: 0, rateLimited: 0 };
  /** Leaves the quota (once closed and empty). */
  private readonly leaveQuota: () => void;

  constructor(private readonly options: NormalizedPoolOptions) {
    this.name = options.name;
    this.leaveQuota = options.quota.join({
      wakeRateLimited: () => {
        const wake = this.slotWaiters.shift();
        wake?.();
        return wake !== undefined;
      },
      slotFreed: () => {
        this.ensureMin();
        this.dispatch();
      },
      evictIdle: () => {
        if (this.idle.length === 0 || this.alive() - this.destroying <= this.options.min) return false;
        void this.destroyEntry(this.idle.shift()!); // the longest idle
        return true;
      },
    });
    this.ensureMin();
  }

  acquire(acquireOptions: SandboxAcquireOptions = {}): Promise<SandboxSession> {
    if (this.closing) return Promise.reject(closedError(this.name));
    const { signal, expectedDurationMs } = acquireOptions;
    if (signal?.aborted) return Promise.reject(abortedError(this.name, signal.reason));
    return new Promise<SandboxSession>((resolve, reject) => {
      const settle = (): void => {
        waiter.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
      };
      const waiter: Waiter = {
        settled: false,
        expectedDurationMs,
        resolve: (session) => {
          settle();
          resolve(session);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      // Infinity (validated by normalizePoolOptions) waits as long as it takes
      const timer = Number.isFinite(this.options.acquireTimeoutMs)
        ? setTimeout(
            () => waiter.fail(exhaustedError(this.options, this.waiters.length)),
            this.options.acquireTimeoutMs,
          )
        : undefined;
      const onAbort = (): void => waiter.fail(abortedError(this.name, signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  stats(): PoolStats {
    return {
      alive: this.alive(),
      idle: this.idle.length,
      inUse: this.lent.size,
      creating: this.creating,
      checking: this.checking,
      destroying: this.destroying,
      waiting: this.waiters.length,
      min: this.options.min,
      max: this.options.max,
      closed: this.closing !== undefined,
      createRetries: this.counts.createRetries,
      rateLimited: this.counts.rateLimited,
    };
  }

  close(): Promise<void> {
    this.closing ??= this.drain();
    return this.closing;
  }

  private async drain(): Promise<void> {
    for (const wake of [...this.pauses]) wake();
    for (const waiter of [...this.waiters]) waiter.fail(closedError(this.name));
    const idle = this.idle.splice(0);
    const idleDestroyed = Promise.all(idle.map((entry) => this.destroyEntry(entry)));
    await this.waitFor(
      () => this.lent.size === 0 && this.checking === 0 && this.creating === 0,
      this.options.closeTimeoutMs,
    );
    const remaining = [...this.idle.splice(0), ...this.lent];
    this.lent.clear();
    await Promise.all([idleDestroyed, ...remaining.map((entry) => this.destroyEntry(entry))]);
    await this.waitFor(() => this.alive() === 0, this.options.closeTimeoutMs);
    this.leaveQuota();
  }

  private alive(): number {
    return this.idle.length + this.lent.size + this.creating + this.checking + this.destroying;
  }

  /** Lends idle sandboxes to waiters in arrival order and starts creates for the rest. */
  private dispatch(): void {
    if (this.closing) return;
    while (this.waiters.length > 0 && this.idle.length > 0) {
      const entry = this.idle.pop()!;
      clearTimeout(entry.idleTimer);
      void this.handOut(entry, this.waiters.shift()!, false);
    }
    let deficit = this.waiters.length - this.creating;
    while (deficit > 0 && this.alive() < this.options.max) {
      if (!this.options.quota.tryTake()) {
        // the shared quota is full: idle sandboxes of the pools sharing it make room
        this.options.quota.reclaim(deficit);
        break;
      }
      deficit--;
      void this.grow();
    }
  }

  private ensureMin(): void {
    if (this.closing) return;
    while (this.alive() < this.options.min && this.options.quota.tryTake()) void this.grow();
  }

  /** Creates one sandbox on a quota slot the caller has taken; gives the slot back if it fails for good. */
  private async grow(): Promise<void> {
    this.creating++;
    let handle: SandboxHandle;
    let failures = 0;
    let retries = 0;
    for (;;) {
      // the vendor's creation rate (the quota's createsPerSecond): wait for this create's turn
      const turnInMs = this.options.quota.reserveCreate();
      if (turnInMs > 0) {
        await this.sleep(turnInMs);
        if (!this.createStillWanted()) {
          this.creating--;
          this.notify();
          this.options.quota.give();
          return;
        }
      }
      const sentAt = this.options.quota.frees();
      try {
        handle = await this.options.adapter.create(
          this.options.fromSnapshot === undefined ? {} : { fromSnapshot: this.options.fromSnapshot },
        );
        break;
      } catch (cause) {
        const error = SandboxError.isInstance(cause) ? cause : startFailed(this.name, cause);
        const failure = classifyCreateFailure(cause);
        if (failure === 'rate_limited') this.counts.rateLimited++;
        else failures++;
        const retryable =
          failure !== 'permanent' &&
          this.options.createAttempts > 1 &&
          failures < this.options.createAttempts;
        if (retryable && this.createStillWanted()) {
          retries++;
          this.counts.createRetries++;
          // a slot freed while the refused request was on its way back is the one it waited for
          const freedMeanwhile = failure === 'rate_limited' && this.options.quota.claimFreeSince(sentAt);
          if (!freedMeanwhile) await this.pauseBeforeRetry(retries, failure === 'rate_limited');
          if (this.createStillWanted()) continue;
        }
        this.creating--;
        // a create nobody needs any more fails nobody; an exhausted or permanent failure goes to the oldest waiter
        const waiter = retryable ? undefined : this.waiters.shift();
        if (waiter) waiter.fail(error);
        else this.report(error);
        this.notify();
        this.options.quota.give(); // lets this pool (and the quota's others) try again for their waiters
        return;
      }
    }
    this.creating--;
    const entry: Entry = { handle };
    const waiter = this.waiters.shift();
    if (this.closing) void this.destroyEntry(entry);
    else if (waiter) await this.handOut(entry, waiter, true);
    else this.makeIdle(entry);
    this.notify();
  }

  /** A create in flight is still needed: a waiter that no other create serves, or fewer than `min` alive. */
  private createStillWanted(): boolean {
    if (this.closing) return false;
    return this.waiters.length >= this.creating || this.alive() <= this.options.min;
  }

  /**
   * Waits the backoff of retry number `retry`. After a rate limit it also ends as soon as one of
   * this pool's sandboxes is destroyed (one waiting retry per freed slot, oldest first), since that
   * frees a slot of the vendor's quota.
   */
  private pauseBeforeRetry(retry: number, rateLimited: boolean): Promise<void> {
    const { createRetryDelayMs: first, createRetryMaxDelayMs: max } = this.options;
    return this.sleep(createRetryDelayMs(retry, first, max), rateLimited);
  }

  /**
   * Waits `ms`; `close()` ends the wait at once, and so does a destroyed sandbox's freed slot when
   * `wakeOnFreedSlot` (see {@link SandboxPool.pauseBeforeRetry}).
   */
  private sleep(ms: number, wakeOnFreedSlot = false): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        const index = this.slotWaiters.indexOf(wake);
        if (index >= 0) this.slotWaiters.splice(index, 1);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
      if (wakeOnFreedSlot) this.slotWaiters.push(wake);
    });
  }

  /** Checks (health, lifetime) and lends `entry` to `waiter`, or destroys it and re-queues the waiter. */
  private async handOut(entry: Entry, waiter: Waiter, fresh: boolean): Promise<void> {
    const { healthCheck } = this.options;
    // Every handle now has the method (throwing capability_unsupported where the vendor has no
    // lifetime): extend only where the adapter declares it, or, for an adapter that predates
    // capabilities, where its handle has the method.
    const canExtend = this.options.adapter.capabilities?.extendLifetime ?? true;
    const extend =
      waiter.expectedDurationMs !== undefined && canExtend ? entry.handle.extendLifetime : undefined;
    if ((fresh || !healthCheck) && !extend) return this.lend(entry, waiter);
    this.checking++;
    let healthy = true;
    try {
      if (!fresh && healthCheck) healthy = (await healthCheck(entry.handle)) !== false;
      if (healthy && extend) await extend.call(entry.handle, waiter.expectedDurationMs!);
    } catch (error) {
      healthy = false;
      this.report(error);
    }
    this.checking--;
    if (healthy) return this.lend(entry, waiter);
    void this.destroyEntry(entry);
    if (!waiter.settled && !this.closing) this.waiters.unshift(waiter);
    this.dispatch();
  }

  private lend(entry: Entry, waiter: Waiter): void {
    if (this.closing) {
      void this.destroyEntry(entry);
    } else if (waiter.settled) {
      this.makeIdle(entry);
      this.dispatch();
    } else {
      this.lent.add(entry);
      waiter.resolve(
        lendSession(entry.handle, this.name, (release) => this.giveBack(entry, release.destroy === true)),
      );
    }
  }

  private async giveBack(entry: Entry, destroy: boolean): Promise<void> {
    if (!this.lent.delete(entry)) return; // already destroyed by close() after its deadline
    const { reset } = this.options;
    if (destroy || this.closing) return this.destroyEntry(entry);
    if (reset) {
      this.checking++;
      let ok = true;
      try {
        await reset(entry.handle);
      } catch (error) {
        ok = false;
        this.report(error);
      }
      this.checking--;
      if (!ok || this.closing) return this.destroyEntry(entry);
    }
    this.makeIdle(entry);
    this.notify();
    this.dispatch();
  }

  private makeIdle(entry: Entry): void {
    this.idle.push(entry);
    if (Number.isFinite(this.options.idleTimeoutMs)) {
      entry.idleTimer = setTimeout(() => this.evict(entry), this.options.idleTimeoutMs);
      entry.idleTimer.unref();
    }
  }

  private evict(entry: Entry): void {
    const index = this.idle.indexOf(entry);
    if (index < 0 || this.alive() - this.destroying <= this.options.min) return;
    this.idle.splice(index, 1);
    void this.destroyEntry(entry);
  }

  /** Destroys a sandbox the pool no longer tracks elsewhere. Never rejects. */
  private async destroyEntry(entry: Entry): Promise<void> {
    this.destroying++;
    clearTimeout(entry.idleTimer);
    for (let attempt = 1; attempt <= this.options.destroyAttempts; attempt++) {
      try {
        await entry.handle.destroy();
        break;
      } catch (cause) {
        if (attempt === this.options.destroyAttempts) {
          this.report(
            new SandboxError({
              code: SandkitErrorCode.sandboxUnavailable,
              message: `pool ${this.name}: destroying sandbox ${entry.handle.id} failed ${attempt} times; it may still be running`,
              cause,
              details: { sandboxId: entry.handle.id },
            }),
          );
        }
      }
    }
    this.destroying--;
    this.notify();
    // wakes a create retry paused after a rate limit (here or in a pool sharing the quota), then
    // lets every pool of the quota refill min and serve its waiters
    this.options.quota.give();
  }

  private report(error: unknown): void {
    try {
      this.options.onError(error);
    } catch {
      // an onError hook that throws must not turn into an unhandled rejection inside the pool
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      const check = (): void => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.listeners.add(check);
    });
  }
}
