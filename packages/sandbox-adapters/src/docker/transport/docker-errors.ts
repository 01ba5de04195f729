/**
 * Turns dockerode / Engine API failures into typed SandboxErrors.
 * @module
 */
import { SandboxError, SandkitErrorCode, type SandkitErrorCodeValue } from '@sandkit/core';

/** What dockerode attaches to a failed request. */
interface EngineFailure {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** The HTTP status of an Engine API failure, or `undefined` for a transport error. */
export function engineStatus(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as EngineFailure).statusCode : undefined;
}

/** `true` when the engine could not be reached at all (socket missing, connection refused, reset). */
export function isEngineUnreachable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as EngineFailure).code : undefined;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ENOENT' ||
    code === 'EACCES' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE'
  );
}

/**
 * Wraps an Engine API failure. A 404 on the container becomes `sandbox_gone`, an unreachable
 * engine `sandbox_unavailable`, anything else `fallback`.
 */
export function engineError(
  error: unknown,
  what: string,
  fallback: SandkitErrorCodeValue = SandkitErrorCode.sandboxUnavailable,
): SandboxError {
  if (SandboxError.isInstance(error)) return error;
  const message = (error as Error | undefined)?.message ?? String(error);
  if (isEngineUnreachable(error)) {
    return new SandboxError({
      code: fallback === SandkitErrorCode.sandboxStartFailed ? fallback : SandkitErrorCode.sandboxUnavailable,
      message: `${what}: the Docker engine is unreachable (${message}); start it or point DOCKER_HOST at it`,
      cause: error,
    });
  }
  if (engineStatus(error) === 404 && fallback !== SandkitErrorCode.sandboxStartFailed) {
    return new SandboxError({
      code: SandkitErrorCode.sandboxGone,
      message: `${what}: the container no longer exists (${message}); create a new sandbox`,
      cause: error,
    });
  }
  return new SandboxError({ code: fallback, message: `${what}: ${message}`, cause: error });
}
