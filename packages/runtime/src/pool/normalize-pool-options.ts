import { type SandboxAdapter, type SandboxHandle, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createSandboxQuota, type SandboxQuota } from './sandbox-quota.js';

/** Options of `createPooledSandboxProvider`. */
export interface PooledSandboxProviderOptions {
  /** The vendor that makes the sandboxes. */
  adapter: SandboxAdapter;
  /** Name reported as the session's `providerName`. @default the adapter's name */
  name?: string;
  /** Sandboxes kept alive (warm) even when idle. Integer, 0 ≤ min ≤ max. @default 0 */
  min?: number;
  /** Hard cap on live sandboxes: idle, lent out, being created and being destroyed together. Integer ≥ 1. */
  max: number;
  /**
   * A cap shared with other pools ({@link createSandboxQuota}), for pools on one vendor account:
   * a create needs a free slot of it as well as room under `max`, and a sandbox destroyed by any
   * of the pools wakes a create retry paused after a rate limit in any of them.
   * @default a quota of this pool's own, without a limit
   */
  quota?: SandboxQuota;
  /** An idle sandbox above `min` is destroyed after this many ms. `Infinity` keeps them. @default 300_000 */
  idleTimeoutMs?: number;
  /**
   * How long `acquire()` waits for a sandbox before it fails with `pool_exhausted`, in ms: at most
   * {@link maxTimerMs} (what a Node.js timer holds), or `Infinity` to wait as long as it takes.
   * @default 30_000
   */
  acquireTimeoutMs?: number;
  /** How long `close()` waits for lent-out sandboxes to come back before destroying them, in ms (at most {@link maxTimerMs}). @default 30_000 */
  closeTimeoutMs?: number;
  /**
   * Run on an idle sandbox before it is lent again. Returning `false` or throwing marks it
   * unhealthy: it is destroyed and replaced, never lent out. @default none (every idle sandbox is lent)
   */
  healthCheck?: (handle: SandboxHandle) => Promise<boolean | undefined> | boolean | undefined;
  /**
   * Run on a released sandbox before it goes back to the idle set (for example `git clean -fdx`).
   * Throwing destroys it instead. @default none
   */
  reset?: (handle: SandboxHandle) => Promise<void> | void;
  /**
   * How many times the pool tries `adapter.create()` for one waiting acquire before that acquire
   * fails with the vendor's error. Only transient failures are retried (SandboxError
   * `sandbox_start_failed`, `sandbox_unavailable`); other errors fail the acquire at once. With
   * more than 1, a `sandbox_rate_limited` refusal (the vendor's concurrency quota) is retried too,
   * without using up an attempt, for as long as the acquire waits: the retry starts as soon as one
   * of the pool's own sandboxes is destroyed (freeing a quota slot), or after the backoff delay.
   * `1` (no retry) lets a composite provider fall back to its next vendor at once. Integer ≥ 1.
   * @default 1
   */
  createAttempts?: number;
  /**
   * Backoff before the first create retry, in ms; it doubles per retry (with jitter: between half
   * and all of it) up to `createRetryMaxDelayMs`. @default 250
   */
  createRetryDelayMs?: number;
  /** Cap of the create retry backoff, in ms. @default 8_000 */
  createRetryMaxDelayMs?: number;
  /** How many times `destroy()` is attempted before the pool gives up on a sandbox. @default 3 */
  destroyAttempts?: number;
  /**
   * Called with errors that have no caller to go to (a failed destroy, a failed warm-up create).
   * @default ignore them
   */
  onError?: (error: unknown) => void;
  /**
   * Warm every sandbox from this snapshot (what a handle's `snapshot()` returned): an expensive
   * setup (clone, install) runs once, then each sandbox starts from its result. Passed to
   * `adapter.create({ fromSnapshot })`.
   * @throws SandkitError `invalid_option` here when the adapter's `capabilities.snapshot` is not true.
   */
  fromSnapshot?: string;
}

/**
 * The longest delay a Node.js timer holds, in ms (2^31 − 1, about 24.8 days): a longer one fires
 * after 1 ms (`TimeoutOverflowWarning`), so the pool refuses it.
 */
export const maxTimerMs = 2 ** 31 - 1;

/** {@link PooledSandboxProviderOptions} with every default filled in. */
export type NormalizedPoolOptions = Required<
  Omit<PooledSandboxProviderOptions, 'healthCheck' | 'reset' | 'fromSnapshot'>
> &
  Pick<PooledSandboxProviderOptions, 'healthCheck' | 'reset' | 'fromSnapshot'>;

/**
 * Fills the defaults of {@link PooledSandboxProviderOptions} once.
 * @throws SandkitError `invalid_option` for a non-integer or out-of-range `min`/`max`,
 *   `destroyAttempts` or `createAttempts`, or a timeout or retry delay that is not a positive number
 *   of ms up to {@link maxTimerMs} (`Infinity` is accepted for `idleTimeoutMs` and `acquireTimeoutMs`: no timeout).
 */
export function normalizePoolOptions(options: PooledSandboxProviderOptions): NormalizedPoolOptions {
  const min = options.min ?? 0;
  const { max } = options;
  if (!Number.isInteger(max) || max < 1) invalid(`max must be an integer ≥ 1, got ${max}`);
  if (!Number.isInteger(min) || min < 0 || min > max)
    invalid(`min must be an integer between 0 and max (${max}), got ${min}`);
  const normalized: NormalizedPoolOptions = {
    adapter: options.adapter,
    name: options.name ?? options.adapter.name,
    min,
    max,
    quota: options.quota ?? createSandboxQuota(Number.POSITIVE_INFINITY),
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
    acquireTimeoutMs: options.acquireTimeoutMs ?? 30_000,
    closeTimeoutMs: options.closeTimeoutMs ?? 30_000,
    destroyAttempts: options.destroyAttempts ?? 3,
    createAttempts: options.createAttempts ?? 1,
    createRetryDelayMs: options.createRetryDelayMs ?? 250,
    createRetryMaxDelayMs: options.createRetryMaxDelayMs ?? 8_000,
    onError: options.onError ?? (() => {}),
    healthCheck: options.healthCheck,
    reset: options.reset,
    fromSnapshot: options.fromSnapshot,
  };
  if (options.fromSnapshot !== undefined && options.adapter.capabilities?.snapshot !== true)
    invalid(
      `fromSnapshot needs an adapter whose capabilities.snapshot is true; the ${options.adapter.name} adapter's is not`,
    );
  for (const key of [
    'idleTimeoutMs',
    'acquireTimeoutMs',
    'closeTimeoutMs',
    'createRetryDelayMs',
    'createRetryMaxDelayMs',
  ] as const) {
    const value = normalized[key];
    const unbounded = key === 'idleTimeoutMs' || key === 'acquireTimeoutMs';
    if (
      typeof value !== 'number' ||
      !(value > 0) ||
      (value > maxTimerMs && !(unbounded && value === Infinity))
    )
      invalid(
        `${key} must be a positive number of milliseconds up to ${maxTimerMs} (what a timer holds, about 24.8 days)${unbounded ? ', or Infinity for no timeout' : ''}; got ${options[key]}`,
      );
  }
  for (const key of ['destroyAttempts', 'createAttempts'] as const) {
    if (!Number.isInteger(normalized[key]) || normalized[key] < 1)
      invalid(`${key} must be an integer ≥ 1, got ${options[key]}`);
  }
  return normalized;
}

function invalid(message: string): never {
  throw new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `createPooledSandboxProvider: ${message}`,
  });
}
