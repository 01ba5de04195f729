/** The errors a pool throws, built from its fields with a next step in the message. */
import { SandboxError, SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { NormalizedPoolOptions } from './normalize-pool-options.js';

export function exhaustedError(options: NormalizedPoolOptions, waiting: number): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.poolExhausted,
    message: `pool ${options.name}: no sandbox became free within ${options.acquireTimeoutMs} ms (max ${options.max} alive, ${waiting} waiting); raise max or acquireTimeoutMs, or release sessions sooner`,
    details: { max: options.max, acquireTimeoutMs: options.acquireTimeoutMs },
  });
}

export function closedError(name: string): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.poolClosed,
    message: `pool ${name} is closed; create a new provider`,
  });
}

export function abortedError(name: string, reason: unknown): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.aborted,
    message: `pool ${name}: acquire was aborted`,
    cause: reason,
  });
}

export function startFailed(name: string, cause: unknown): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.sandboxStartFailed,
    message: `pool ${name}: the adapter could not create a sandbox: ${(cause as Error)?.message ?? String(cause)}`,
    cause,
  });
}
