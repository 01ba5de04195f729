/**
 * File transfer for the local adapter: plain node:fs on the sandbox directory, binary-safe,
 * writes atomic (temp file in the same directory, then rename).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SandboxError, type SandboxData, SandkitErrorCode, type WriteFileOptions } from '@sandkit/core';

/**
 * Reads a whole file.
 * @throws SandboxError `file_not_found`, `is_directory`
 */
export async function readLocalFile(workdir: string, path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const full = resolve(workdir, path);
  try {
    const data = await readFile(full, signal ? { signal } : {});
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  } catch (error) {
    throw fileError(error, full);
  }
}

/**
 * Writes a whole file atomically, creating parents and keeping an existing file's mode.
 * @throws SandboxError `is_directory`, `not_directory`
 */
export async function writeLocalFile(workdir: string, path: string, data: SandboxData, options: WriteFileOptions = {}): Promise<void> {
  const full = resolve(workdir, path);
  const existing = await stat(full).catch(() => undefined);
  if (existing?.isDirectory()) throw fileError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), full);
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : 0o644);
  const temp = `${dirname(full)}/.${randomBytes(6).toString('hex')}.sandkit-tmp`;
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

function fileError(error: unknown, path: string): SandboxError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new SandboxError({ code: SandkitErrorCode.fileNotFound, message: `no such file: ${path}`, cause: error, details: { path } });
  }
  if (code === 'EISDIR') {
    return new SandboxError({ code: SandkitErrorCode.isDirectory, message: `${path} is a directory, not a file`, cause: error, details: { path } });
  }
  if (code === 'ENOTDIR') {
    return new SandboxError({ code: SandkitErrorCode.notDirectory, message: `a parent of ${path} is not a directory`, cause: error, details: { path } });
  }
  return new SandboxError({ code: SandkitErrorCode.sandboxUnavailable, message: `file operation on ${path} failed: ${(error as Error).message}`, cause: error, details: { path } });
}
