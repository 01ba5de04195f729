import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { FileNotFoundError, SandboxNotFoundError } from 'e2b';

/**
 * Turns an E2B SDK failure into a SandboxError. "Sandbox not found" becomes `sandbox_gone`, a
 * distinct code, so an expired or killed sandbox is never mistaken for a command timeout (C16).
 */
export function toSandboxError(error: unknown, action: string, path?: string): SandboxError {
  if (error instanceof SandboxNotFoundError) {
    return new SandboxError({
      code: SandkitErrorCode.sandboxGone,
      message: `E2B sandbox is gone (expired or killed) while trying to ${action}; acquire a new sandbox`,
      cause: error,
    });
  }
  if (error instanceof FileNotFoundError) {
    return new SandboxError({ code: SandkitErrorCode.fileNotFound, message: `no such file: ${path}`, cause: error, details: { path } });
  }
  const message = (error as Error).message ?? String(error);
  if (/is a directory/i.test(message)) {
    return new SandboxError({ code: SandkitErrorCode.isDirectory, message: `${path} is a directory, not a file`, cause: error, details: { path } });
  }
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `E2B call failed while trying to ${action}: ${message}`,
    cause: error,
  });
}
