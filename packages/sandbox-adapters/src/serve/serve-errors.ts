/**
 * How `sandkit serve` answers a failure: every error becomes the protocol's
 * `{ "error": { name, code, message, details } }` body with an HTTP status chosen by its code, so
 * the HTTP adapter can rebuild the same `SandboxError` or `SandkitError` on the other side.
 * @module
 */
import { SandboxError, SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { ProtocolError } from '../http/transport/protocol.js';

/** HTTP status of each sandkit code the server sends; any other code is 500 (SandboxError) or 400. */
const statusByCode: Record<string, number> = {
  [SandkitErrorCode.invalidOption]: 400,
  [SandkitErrorCode.sandboxGone]: 404,
  [SandkitErrorCode.fileNotFound]: 404,
  [SandkitErrorCode.unknownProcess]: 404,
  [SandkitErrorCode.isDirectory]: 409,
  [SandkitErrorCode.notDirectory]: 409,
  [SandkitErrorCode.refused]: 409,
  [SandkitErrorCode.cwdNotFound]: 409,
  [SandkitErrorCode.tooLarge]: 413,
  [SandkitErrorCode.aborted]: 499,
};

/** The protocol error and HTTP status for `error` (anything thrown by a handler). */
export function toProtocolError(error: unknown): { status: number; body: { error: ProtocolError } } {
  if (SandkitError.isInstance(error)) {
    const name = SandboxError.isInstance(error) ? 'SandboxError' : 'SandkitError';
    const status = statusByCode[error.code] ?? (name === 'SandboxError' ? 500 : 400);
    return {
      status,
      body: { error: { name, code: error.code, message: error.message, details: error.details } },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        name: 'SandboxError',
        code: SandkitErrorCode.internal,
        message: `sandkit serve failed: ${error instanceof Error ? error.message : String(error)}`,
      },
    },
  };
}

/** A `SandkitError` `invalid_option` for a malformed request (the caller must fix it). */
export function badRequest(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
