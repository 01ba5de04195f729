/**
 * Which failed `adapter.create()` calls the pool tries again, and how long it waits first.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';

/** What a failed create means for the pool. */
export type CreateFailure = 'rate_limited' | 'transient' | 'permanent';

/**
 * Sorts a create failure: `rate_limited` for SandboxError `sandbox_rate_limited` (the vendor's
 * quota is full: retry once a slot frees), `transient` for `sandbox_start_failed` and
 * `sandbox_unavailable` (the vendor failed this once: retry after a backoff), `permanent` for
 * everything else (bad options, a missing template: retrying cannot help).
 */
export function classifyCreateFailure(error: unknown): CreateFailure {
  if (!SandboxError.isInstance(error)) return 'permanent';
  if (error.code === SandkitErrorCode.sandboxRateLimited) return 'rate_limited';
  if (
    error.code === SandkitErrorCode.sandboxStartFailed ||
    error.code === SandkitErrorCode.sandboxUnavailable
  )
    return 'transient';
  return 'permanent';
}

/**
 * The backoff before retry number `retry` (1-based), in ms: `firstMs × 2^(retry−1)` capped at
 * `maxMs`, then jittered to between half and all of it so that many pools (or many waiters) that
 * failed together do not retry together. `random` returns a number in [0, 1).
 */
export function createRetryDelayMs(
  retry: number,
  firstMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const full = Math.min(maxMs, firstMs * 2 ** Math.max(0, retry - 1));
  return full / 2 + (random() * full) / 2;
}
