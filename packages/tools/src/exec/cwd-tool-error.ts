/**
 * A `cwd` the model made up is the model's mistake: the adapter's `cwd_not_found` becomes a tool
 * error result that says what to do, not a failed sandbox thrown to the agent loop.
 * @module
 */
import { SandboxError, SandkitErrorCode, ToolError } from '@sandkit/core';

/**
 * `error` as the tool should throw it: a SandboxError `cwd_not_found` becomes a ToolError
 * `not_found` naming `cwd`; anything else is returned unchanged.
 */
export function cwdToolError(error: unknown, cwd: string | undefined): unknown {
  if (!SandboxError.isInstance(error) || error.code !== SandkitErrorCode.cwdNotFound) return error;
  return cwdNotFound(cwd, error);
}

/** The ToolError `not_found` for a `cwd` that is not an existing directory under the root. */
export function cwdNotFound(cwd: string | undefined, cause?: unknown): ToolError {
  return new ToolError({
    code: SandkitErrorCode.notFound,
    message: `cwd "${cwd}" is not an existing directory under the workspace root; list_files shows what exists`,
    details: { cwd },
    ...(cause === undefined ? {} : { cause }),
  });
}
