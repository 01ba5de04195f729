import { SandkitError, type SandkitErrorOptions } from './sandkit-error.js';

const marker = Symbol.for('sandkit.error.tool');

/**
 * A tool call failed in a way the model can fix (file not found, old_text not unique, path
 * outside the root, …). `executeToolCall` turns it into an error tool result carrying the message.
 */
export class ToolError extends SandkitError {
  readonly [marker] = true;
  constructor(options: SandkitErrorOptions) {
    super(options);
    this.name = 'ToolError';
  }
  static override isInstance(error: unknown): error is ToolError {
    return SandkitError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
