/** Helpers shared by the pool tests: waiting on a condition, and closing every pool a test made. */
import { afterEach } from 'vitest';
import type { PooledSandboxProvider } from '../../src/pool/pooled-sandbox-provider.js';

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every 2 ms until it returns true.
 * @param timeoutMs how long to wait, in ms. @default 2000
 * @throws Error `condition not reached` when `timeoutMs` passes first.
 */
export async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(2);
  }
}

/** What {@link trackPools} returns. */
export interface TrackedPools {
  /** Keeps `pool` to be closed after the test, and returns it. */
  track(pool: PooledSandboxProvider): PooledSandboxProvider;
  /** Closes every pool kept so far (and forgets them). */
  closeAll(): Promise<void>;
}

/** Registers an `afterEach` in the calling test file that closes every pool its tests `track`. */
export function trackPools(): TrackedPools {
  const pools: PooledSandboxProvider[] = [];
  const closeAll = async (): Promise<void> => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  };
  afterEach(closeAll);
  return {
    track(pool) {
      pools.push(pool);
      return pool;
    },
    closeAll,
  };
}
