/**
 * Which instance errors are the sandbox failing under the instance (expired, gone, could not be
 * started or was refused) rather than anything about the instance: `runEval` runs those again on a
 * fresh sandbox, up to `infraRetries` times, and records only the last attempt.
 * @module
 */
import { SandkitErrorCode } from '@sandkit/core';
import type { InstanceResult } from './instance/eval-result.js';

const retriedCodes: ReadonlySet<string> = new Set([
  SandkitErrorCode.sandboxGone,
  SandkitErrorCode.sandboxExpired,
  SandkitErrorCode.sandboxUnavailable,
  SandkitErrorCode.sandboxStartFailed,
  SandkitErrorCode.sandboxRateLimited,
]);

/** `true` when `result` is a `sandbox` error whose code says a fresh sandbox may succeed. */
export function isRetriedSandboxFailure(result: InstanceResult): boolean {
  return (
    result.status === 'error' &&
    result.error_kind === 'sandbox' &&
    result.error_code !== undefined &&
    retriedCodes.has(result.error_code)
  );
}
