/**
 * The check every adapter's `readFile` and `writeFile` make of the path they are given.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/**
 * `path` itself when it is a non-empty string without NUL bytes.
 * @throws SandkitError `invalid_option` otherwise (an empty path would name the workdir itself; a
 *   NUL byte cannot reach the file system).
 */
export function checkedPath(path: string): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0'))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `path must be a non-empty string without NUL bytes, got ${JSON.stringify(path)}`,
    });
  return path;
}
