import { SandkitError, type SandkitErrorOptions } from './sandkit-error.js';

const marker = Symbol.for('sandkit.error.sandbox');

/**
 * The sandbox itself failed (could not start, connection lost, destroyed, expired, missing cwd,
 * pool exhausted). Thrown to the operator; the model cannot fix it.
 */
export class SandboxError extends SandkitError {
  readonly [marker] = true;
  constructor(options: SandkitErrorOptions) {
    super(options);
    this.name = 'SandboxError';
  }
  static override isInstance(error: unknown): error is SandboxError {
    return SandkitError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
