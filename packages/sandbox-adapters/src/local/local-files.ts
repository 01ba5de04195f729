/**
 * File transfer for the local adapter: plain node:fs on the sandbox directory, binary-safe,
 * writes atomic (temp file in the same directory, then rename).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  type SandboxData,
  SandboxError,
  SandkitError,
  SandkitErrorCode,
  type WriteFileOptions,
} from '@sandkit/core';
import { checkedPath } from '../checked-path.js';

/**
 * Reads a whole file. A relative `path` resolves against `workdir`.
 * @throws SandkitError `invalid_option` for an empty path or one with a NUL byte.
 * @throws SandboxError `file_not_found`, `is_directory`, `not_directory`.
 * @throws SandkitError `aborted` when `signal` aborts the read.
 */
export async function readLocalFile(
  workdir: string,
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const full = resolve(workdir, checkedPath(path));
  try {
    const data = await readFile(full, signal ? { signal } : {});
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  } catch (error) {
    throw fileError(error, full);
  }
}

/**
 * Writes a whole file atomically (a temp file beside it, then rename), creating parents and keeping
 * an existing file's permission bits. Writing through a symlink replaces the file it points to,
 * not the link.
 * @throws SandkitError `invalid_option` for an empty path, a NUL byte, or a mode outside 0–0o7777.
 * @throws SandboxError `is_directory`, `not_directory`.
 * @throws SandkitError `aborted` when `options.signal` aborts the write (no temp file is left).
 */
export async function writeLocalFile(
  workdir: string,
  path: string,
  data: SandboxData,
  options: WriteFileOptions = {},
): Promise<void> {
  if (
    options.mode !== undefined &&
    (!Number.isInteger(options.mode) || options.mode < 0 || options.mode > 0o7777)
  ) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `mode must be an integer in 0..0o7777, got ${options.mode}`,
    });
  }
  let full = resolve(workdir, checkedPath(path));
  let existing = await lstat(full).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    full = await realpath(full).catch(() => full);
    existing = await lstat(full).catch(() => undefined);
  }
  if (existing?.isDirectory())
    throw fileError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), full);
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : 0o644);
  const temp = `${dirname(full)}/.${basename(full).slice(0, 40)}.${randomBytes(6).toString('hex')}.sandkit-tmp`;
  try {
    await mkdir(dirname(full), { recursive: true });
    await writeFile(temp, data, options.signal ? { signal: options.signal, mode } : { mode });
    await chmod(temp, mode);
    await rename(temp, full);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw fileError(error, full);
  }
}

function fileError(error: unknown, path: string): SandkitError {
  if (SandkitError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const details = { path };
  if ((error as Error).name === 'AbortError') {
    return new SandkitError({
      code: SandkitErrorCode.aborted,
      message: `file operation on ${path} was aborted`,
      cause: error,
      details,
    });
  }
  if (code === 'ENOENT') {
    return new SandboxError({
      code: SandkitErrorCode.fileNotFound,
      message: `no such file: ${path}`,
      cause: error,
      details,
    });
  }
  if (code === 'EISDIR') {
    return new SandboxError({
      code: SandkitErrorCode.isDirectory,
      message: `${path} is a directory, not a file`,
      cause: error,
      details,
    });
  }
  if (code === 'ENOTDIR') {
    return new SandboxError({
      code: SandkitErrorCode.notDirectory,
      message: `a parent of ${path} is not a directory`,
      cause: error,
      details,
    });
  }
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `file operation on ${path} failed: ${(error as Error).message}`,
    cause: error,
    details,
  });
}
