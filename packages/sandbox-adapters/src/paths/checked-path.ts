/**
 * The check every adapter's `readFile` and `writeFile` make of the path they are given.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/**
 * `path` itself when it is a non-empty string without NUL bytes and with no lone UTF-16 surrogate.
 * @throws SandkitError `invalid_option` otherwise (an empty path would name the workdir itself; a
 *   NUL byte cannot reach the file system; a lone surrogate has no UTF-8 form, so the file system
 *   would get U+FFFD in its place, another name than the one asked for, and the Docker engine's
 *   archive URL cannot carry it at all).
 */
export function checkedPath(path: string): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0'))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `path must be a non-empty string without NUL bytes, got ${JSON.stringify(path)}`,
    });
  // In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches.
  const lone = /\p{Surrogate}/u.exec(path);
  if (lone !== null)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `path holds a lone UTF-16 surrogate (code unit ${lone.index} of ${JSON.stringify(path)}), which names no file; pass the path as well-formed Unicode`,
    });
  return path;
}
