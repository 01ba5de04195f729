/**
 * Turns E2B SDK failures into SandboxErrors.
 *
 * A sandbox that expired or was killed answers every request through E2B's proxy with HTTP 502
 * "The sandbox was not found". The `e2b` 2.51.0 SDK maps that to `SandboxNotFoundError` only when a
 * command starts; file calls, unary RPCs and a stream that dies mid-way surface as `TimeoutError`
 * or a plain connection error. So, for any failure that is not clearly the caller's
 * (`FileNotFoundError`, "is a directory"), the adapter asks the sandbox's health endpoint
 * (`isRunning()`, which reads the proxy's 502 as "not running"): not running → `sandbox_gone`.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { FileNotFoundError, type Sandbox, SandboxNotFoundError } from 'e2b';

/** How long the health probe may take, in ms. */
const probeTimeoutMs = 5_000;

/**
 * Maps `error` from a call on `sandbox`, probing its health when the cause is unclear.
 * Returns `sandbox_gone`, `file_not_found`, `is_directory` or `sandbox_unavailable`.
 */
export async function toSandboxErrorChecked(
  sandbox: Sandbox,
  error: unknown,
  action: string,
  path?: string,
): Promise<SandboxError> {
  const known = knownError(error, path);
  if (known) return known;
  if (error instanceof SandboxNotFoundError || (await isGone(sandbox))) return goneError(action, error);
  if (SandboxError.isInstance(error)) return error;
  const message = (error as Error).message ?? String(error);
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `E2B call failed while trying to ${action}: ${message}`,
    cause: error,
  });
}

/** The `sandbox_gone` error for `action`. */
export function goneError(action: string, cause?: unknown): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.sandboxGone,
    message: `E2B sandbox is gone (expired, killed or paused) while trying to ${action}; acquire a new sandbox (or resume a paused one)`,
    cause,
  });
}

function knownError(error: unknown, path: string | undefined): SandboxError | undefined {
  if (error instanceof FileNotFoundError) {
    return new SandboxError({
      code: SandkitErrorCode.fileNotFound,
      message: `no such file: ${path}`,
      cause: error,
      details: { path },
    });
  }
  const message = (error as Error | undefined)?.message ?? '';
  if (/is a directory/i.test(message) && !/sandbox was not found/i.test(message)) {
    return new SandboxError({
      code: SandkitErrorCode.isDirectory,
      message: `${path} is a directory, not a file`,
      cause: error,
      details: { path },
    });
  }
  return undefined;
}

async function isGone(sandbox: Sandbox): Promise<boolean> {
  try {
    return (await sandbox.isRunning({ requestTimeoutMs: probeTimeoutMs })) === false;
  } catch {
    return false; // health unknown (unreachable): not proof that the sandbox is gone
  }
}

/**
 * A failed lifecycle (REST) call on `sandbox`: a 404 (`SandboxNotFoundError`) is `sandbox_gone`;
 * 401 and 429 keep the SDK's message as `sandbox_unavailable`, as any other failure.
 */
export async function lifecycleError(
  sandbox: Sandbox,
  error: unknown,
  action: string,
): Promise<SandboxError> {
  if (error instanceof SandboxNotFoundError) return goneError(action, error);
  return toSandboxErrorChecked(sandbox, error, action);
}
