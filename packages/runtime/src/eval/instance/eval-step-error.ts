import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { ErrorKind } from './eval-result.js';

/** A step of the instance failed; `kind` becomes the result's `error_kind`. Caught by `runInstance`; never leaves the harness. */
export class StepError extends SandkitError {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string) {
    super({ code: SandkitErrorCode.commandFailed, message, details: { kind } });
    this.kind = kind;
  }
}
