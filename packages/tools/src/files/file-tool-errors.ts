/**
 * The ToolErrors the file tools share, with messages that tell the model what to do next, and
 * the mapping of the contract's file SandboxErrors (missing file, directory) to them.
 * @module
 */
import { SandboxError, SandkitErrorCode, ToolError } from '@sandkit/core';

/** ToolError `not_found` for a path with no file. */
export function fileNotFound(path: string, hint = 'check the path with list_files or find_files'): ToolError {
  return new ToolError({
    code: SandkitErrorCode.notFound,
    message: `no file at "${path}"; ${hint}`,
    details: { path },
  });
}

/**
 * Checks an `expectedRevision` precondition (edit_file, write_file): `expected` may be a prefix of
 * at least 8 hex digits of `actual` (the content revision of the bytes on disk now; `null`
 * when the file no longer exists).
 * @throws ToolError `revision_mismatch` telling the model to read the file again.
 */
export function checkExpectedRevision(
  path: string,
  expected: string | undefined,
  actual: string | null,
): void {
  if (expected === undefined || actual?.startsWith(expected.slice(0, actual.length))) return;
  throw new ToolError({
    code: SandkitErrorCode.revisionMismatch,
    message: `${path} changed since revision ${expected} (${actual === null ? 'it no longer exists' : `it is now ${actual}`}); read it again with read_file and redo the change against the current content. Nothing was written.`,
    details: { path, expectedRevision: expected, revision: actual },
  });
}

/** ToolError `is_directory` for a path that is a directory. */
export function isDirectory(path: string, hint = 'use list_files to see its entries'): ToolError {
  return new ToolError({
    code: SandkitErrorCode.isDirectory,
    message: `"${path}" is a directory, not a file; ${hint}`,
    details: { path },
  });
}

/** ToolError `refused` for a path that is not a regular file or cannot be read. */
export function notRegularFile(path: string, why: 'special' | 'unreadable'): ToolError {
  const message =
    why === 'special'
      ? `"${path}" is not a regular file (a device, socket, pipe or a symlink that leads nowhere); only regular files can be read or written`
      : `"${path}" cannot be read (permission denied); check its mode with list_files or exec`;
  return new ToolError({ code: SandkitErrorCode.refused, message, details: { path } });
}

/**
 * Turns the contract's file SandboxErrors that the model can act on (`file_not_found`,
 * `is_directory`, `not_directory`) into ToolErrors; anything else is returned unchanged.
 */
export function toFileToolError(error: unknown, path: string): unknown {
  if (!SandboxError.isInstance(error)) return error;
  if (error.code === SandkitErrorCode.fileNotFound) return fileNotFound(path);
  if (error.code === SandkitErrorCode.isDirectory) return isDirectory(path);
  if (error.code === SandkitErrorCode.notDirectory) {
    return new ToolError({
      code: SandkitErrorCode.notDirectory,
      message: `a parent of "${path}" is a file, not a directory; pick another path`,
      details: { path },
      cause: error,
    });
  }
  return error;
}

/** What a path is, from {@link statPathCommand}'s output. */
export type PathKind = 'file' | 'directory' | 'missing' | 'other';

/** A command printing `<kind> <size> <links> <device:inode>` for `absolute` (following symlinks): one exec, no file read. */
export function statPathCommand(quotedPath: string): string {
  return `if [ -d ${quotedPath} ]; then echo directory 0; elif [ -f ${quotedPath} ]; then echo file $(stat -L -c '%s %h %d:%i' -- ${quotedPath}); elif [ -e ${quotedPath} ] || [ -L ${quotedPath} ]; then echo other 0; else echo missing 0; fi`;
}

/** Parses {@link statPathCommand}'s output. */
export function parsePathKind(stdout: string): {
  kind: PathKind;
  size: number;
  links: number;
  inode?: string;
} {
  const [kind, size, links, inode] = stdout.trim().split(' ');
  const known: PathKind[] = ['file', 'directory', 'missing', 'other'];
  return {
    kind: known.includes(kind as PathKind) ? (kind as PathKind) : 'other',
    size: Number(size) || 0,
    links: Number(links) || 1,
    ...(inode ? { inode } : {}),
  };
}
