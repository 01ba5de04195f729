import { type SandboxClient, SandkitError, SandkitErrorCode } from '@sandkit/core';

/** Options shared by every tool factory. */
export interface CodingToolOptions {
  /**
   * The workspace root inside the sandbox: every path resolves against it, and no path, `..` or
   * symlink may reach outside it. Absolute sandbox path.
   * @default the sandbox's working directory (`pwd -P` of a command run with no cwd)
   */
  root?: string;
  /**
   * Cap, in UTF-8 bytes, on the text of one tool result sent to the model. Cuts never split a
   * character and the result says how to get the rest.
   * @default 65_536 (64 KiB)
   */
  maxOutputBytes?: number;
}

/** {@link CodingToolOptions} with every default filled in. */
export interface ToolContext {
  readonly client: SandboxClient;
  /** Absolute root as given (or found); use {@link resolveRoot} for its symlink-free form. */
  readonly root: string | undefined;
  readonly maxOutputBytes: number;
}

/** Default of {@link CodingToolOptions.maxOutputBytes}. */
export const defaultMaxOutputBytes = 64 * 1024;

/**
 * Fills the defaults of {@link CodingToolOptions} once.
 * @throws SandkitError `invalid_option` when `root` is not absolute or `maxOutputBytes` is not a positive integer.
 */
export function normalizeCodingToolOptions(
  client: SandboxClient,
  options: CodingToolOptions = {},
): ToolContext {
  if (options.root !== undefined && !options.root.startsWith('/')) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `root must be an absolute sandbox path (for example the handle's workdir), got "${options.root}"`,
    });
  }
  const maxOutputBytes = options.maxOutputBytes ?? defaultMaxOutputBytes;
  if (!Number.isInteger(maxOutputBytes) || maxOutputBytes < 1024) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `maxOutputBytes must be an integer of at least 1024, got ${options.maxOutputBytes}`,
    });
  }
  return { client, root: options.root, maxOutputBytes };
}
