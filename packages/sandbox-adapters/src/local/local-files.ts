/**
 * File transfer for the local adapter: plain node:fs on the sandbox directory, binary-safe,
 * writes atomic (temp file in the same directory, then rename).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import {
  type SandboxData,
  SandboxError,
  SandkitError,
  SandkitErrorCode,
  type WriteFileOptions,
} from '@sandkit/core';
import { checkedPath } from '../paths/checked-path.js';
import { linkLoopError, maxFollowedLinks } from '../paths/follow-links-script.js';

/**
 * Reads a whole file. A relative `path` resolves against `workdir`.
 * @throws SandkitError `invalid_option` for an empty path or one with a NUL byte.
 * @throws SandboxError `file_not_found`, `is_directory`, `not_directory`; `refused` for a pipe,
 *   socket or device (not a regular file) and for a symlink loop; `too_large` for a file over 2 GiB (node:fs's limit for
 *   one read).
 * @throws SandkitError `aborted` when `signal` aborts the read.
 */
export async function readLocalFile(
  workdir: string,
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const full = resolve(workdir, checkedPath(path));
  try {
    // readFile would wait on a pipe for a writer, and read a device such as /dev/zero without end
    const info = await stat(full);
    if (!info.isFile() && !info.isDirectory()) {
      throw new SandboxError({
        code: SandkitErrorCode.refused,
        message: `${full} is not a regular file (a pipe, socket or device); readFile reads regular files only`,
        details: { path: full },
      });
    }
    const data = await readFile(full, signal ? { signal } : {});
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  } catch (error) {
    throw fileError(error, full);
  }
}

/**
 * Writes a whole file atomically (a temp file beside it, then rename), creating parents and keeping
 * an existing file's permission bits. A symlink (a chain of them too) is followed: the link stays
 * and the file it points to gets the bytes; a dangling link's target is created (parents too).
 * @throws SandkitError `invalid_option` for an empty path, a NUL byte, or a mode outside 0–0o7777.
 * @throws SandboxError `is_directory`, `not_directory`; `refused` for a symlink loop (over
 *   {@link maxFollowedLinks} links).
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
  const full = await followLinks(resolve(workdir, checkedPath(path)));
  const existing = await lstat(full).catch(() => undefined);
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

/**
 * The path `path` leads to once the symlinks at its end are followed: a relative link target is
 * joined to the link's directory as it is (not normalised, so `..` after a linked directory means
 * what the kernel makes of it). A dangling link's target is returned as it is.
 */
async function followLinks(path: string): Promise<string> {
  let current = path;
  for (let hop = 0; hop <= maxFollowedLinks; hop++) {
    const target = await readlink(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EINVAL' || error.code === 'ENOENT') return undefined;
      throw fileError(error, current);
    });
    if (target === undefined) return current;
    current = isAbsolute(target) ? target : `${dirname(current)}/${target}`;
  }
  throw linkLoopError('write', path);
}

/**
 * The sandkit error for a node:fs error (an errno `code`) on `path`: `file_not_found`,
 * `is_directory`, `not_directory`, `too_large`, `refused` (a link loop), `aborted`, else
 * `sandbox_unavailable`.
 */
export function fileError(error: unknown, path: string): SandkitError {
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
  if (code === 'ELOOP') return linkLoopError('read', path, error);
  if (code === 'EISDIR') {
    return new SandboxError({
      code: SandkitErrorCode.isDirectory,
      message: `${path} is a directory, not a file`,
      cause: error,
      details,
    });
  }
  if (code === 'ERR_FS_FILE_TOO_LARGE') {
    return new SandboxError({
      code: SandkitErrorCode.tooLarge,
      message: `${path} is larger than one read can hold (2 GiB); read it in parts with exec (for example \`tail -c +N | head -c M\`)`,
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
