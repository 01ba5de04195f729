import { posix } from 'node:path';
import { defaultProtectedPaths, type SandboxClient, SandkitError, SandkitErrorCode } from '@sandkit/core';

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
  /**
   * Paths relative to the root that write_file, edit_file, apply_diff and delete_file refuse
   * (ToolError `protected_path`, naming the rule), a path inside one included; `false` for none.
   * @default defaultProtectedPaths from @sandkit/core (`.git/hooks`, `.git/config`, shell rc files)
   */
  protectedPaths?: readonly string[] | false;
}

/** {@link CodingToolOptions} with every default filled in. */
export interface ToolContext {
  readonly client: SandboxClient;
  /** Absolute root as given (or found); use {@link resolveRoot} for its symlink-free form. */
  readonly root: string | undefined;
  readonly maxOutputBytes: number;
  /** Root-relative, normalised, without trailing slashes. */
  readonly protectedPaths: readonly string[];
}

/** Default of {@link CodingToolOptions.maxOutputBytes}. */
export const defaultMaxOutputBytes = 64 * 1024;

/**
 * Fills the defaults of {@link CodingToolOptions} once.
 * @throws SandkitError `invalid_option` when `root` is not absolute, `maxOutputBytes` is not a positive
 *   integer, or `protectedPaths` is not `false` or a list of root-relative paths.
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
  return {
    client,
    root: options.root,
    maxOutputBytes,
    protectedPaths: protectedList(options.protectedPaths),
  };
}

function protectedList(value: readonly string[] | false | undefined): string[] {
  if (value === false) return [];
  if (value === undefined) return [...defaultProtectedPaths];
  const paths = Array.isArray(value)
    ? value.map((path) => (typeof path === 'string' ? posix.normalize(path).replace(/\/+$/, '') : ''))
    : [];
  if (
    !Array.isArray(value) ||
    paths.some(
      (path) =>
        path === '' || path === '.' || path.startsWith('/') || path === '..' || path.startsWith('../'),
    )
  ) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `protectedPaths must be false or a list of paths relative to the root, such as ['.git/hooks'], got ${JSON.stringify(value)}`,
    });
  }
  return paths;
}
