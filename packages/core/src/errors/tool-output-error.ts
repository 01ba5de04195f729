import type { z } from 'zod';
import { SandkitError, SandkitErrorCode } from './sandkit-error.js';

const marker = Symbol.for('sandkit.error.tool-output');

/** A tool produced a result that does not match its own output schema: a bug in the tool. */
export class ToolOutputError extends SandkitError {
  readonly [marker] = true;
  readonly toolName: string;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(options: { toolName: string; issues: readonly z.core.$ZodIssue[] }) {
    const summary = options.issues.map((i) => `${i.path.map(String).join('.') || '(output)'}: ${i.message}`);
    super({
      code: SandkitErrorCode.invalidOutput,
      message: `Tool "${options.toolName}" returned a result that does not match its output schema: ${summary.join('; ')}`,
      details: { toolName: options.toolName, issues: options.issues },
    });
    this.name = 'ToolOutputError';
    this.toolName = options.toolName;
    this.issues = options.issues;
  }
  static override isInstance(error: unknown): error is ToolOutputError {
    return SandkitError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
