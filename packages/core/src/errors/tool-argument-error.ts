import type { z } from 'zod';
import { SandkitError, SandkitErrorCode } from './sandkit-error.js';

const marker = Symbol.for('sandkit.error.tool-argument');

/**
 * A tool call's arguments were malformed JSON or did not match the tool's input schema. The
 * message lists each problem with its path, so a model can correct the call.
 */
export class ToolArgumentError extends SandkitError {
  readonly [marker] = true;
  /** The tool that was called. */
  readonly toolName: string;
  /** Zod's issues, empty when the arguments were not valid JSON. */
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(options: {
    toolName: string;
    issues?: readonly z.core.$ZodIssue[];
    message?: string;
    cause?: unknown;
  }) {
    const issues = options.issues ?? [];
    super({
      code: SandkitErrorCode.invalidArguments,
      message: options.message ?? formatIssues(options.toolName, issues),
      cause: options.cause,
      details: { toolName: options.toolName, issues },
    });
    this.name = 'ToolArgumentError';
    this.toolName = options.toolName;
    this.issues = issues;
  }
  static override isInstance(error: unknown): error is ToolArgumentError {
    return SandkitError.isInstance(error) && (error as unknown as Record<symbol, unknown>)[marker] === true;
  }
}

function formatIssues(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => {
    const path = issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.');
    return `- ${path}: ${issue.message}`;
  });
  return `Invalid arguments for tool "${toolName}":\n${lines.join('\n')}\nFix these fields and call the tool again.`;
}
