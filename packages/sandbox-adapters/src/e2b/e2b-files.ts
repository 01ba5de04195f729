/**
 * File transfer for the E2B adapter: bytes over the SDK's `files` API. Writes go to a temp name
 * in the target's directory and are renamed into place by one command that also keeps an
 * existing file's mode (or applies the requested one), so a write is atomic.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { quoteShellArgument, type SandboxData, SandboxError, SandkitErrorCode, type WriteFileOptions } from '@sandkit/core';
import type { Sandbox } from 'e2b';
import { toSandboxError } from './e2b-errors.js';

/** Reads a whole file. @throws SandboxError `file_not_found`, `is_directory`, `sandbox_gone` */
export async function readE2BFile(sandbox: Sandbox, path: string): Promise<Uint8Array> {
  try {
    return await sandbox.files.read(path, { format: 'bytes' });
  } catch (error) {
    throw toSandboxError(error, `read ${path}`, path);
  }
}

/** Writes a whole file atomically. @throws SandboxError `is_directory`, `sandbox_gone` */
export async function writeE2BFile(sandbox: Sandbox, path: string, data: SandboxData, options: WriteFileOptions): Promise<void> {
  const temp = posix.join(posix.dirname(path), `.${randomBytes(6).toString('hex')}.sandkit-tmp`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  try {
    await sandbox.files.write(temp, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch (error) {
    throw toSandboxError(error, `write ${path}`, path);
  }
  const q = quoteShellArgument;
  const mode = options.mode === undefined ? undefined : options.mode.toString(8);
  const script = [
    `if [ -d ${q(path)} ]; then rm -f ${q(temp)}; echo is-directory; exit 3; fi`,
    mode === undefined
      ? `if [ -e ${q(path)} ]; then chmod --reference=${q(path)} ${q(temp)}; else chmod 644 ${q(temp)}; fi`
      : `chmod ${mode} ${q(temp)}`,
    `mv -f ${q(temp)} ${q(path)}`,
  ].join('\n');
  let result: { exitCode: number; stdout: string; stderr: string };
  try {
    result = await sandbox.commands.run(script, { timeoutMs: 60_000 });
  } catch (error) {
    const exit = error as { exitCode?: number; stdout?: string; stderr?: string };
    if (typeof exit.exitCode !== 'number') throw toSandboxError(error, `write ${path}`, path);
    result = { exitCode: exit.exitCode, stdout: exit.stdout ?? '', stderr: exit.stderr ?? '' };
  }
  if (result.exitCode === 3 && result.stdout.includes('is-directory')) {
    throw new SandboxError({ code: SandkitErrorCode.isDirectory, message: `${path} is a directory, not a file`, details: { path } });
  }
  if (result.exitCode !== 0) {
    throw new SandboxError({ code: SandkitErrorCode.sandboxUnavailable, message: `cannot move ${path} into place: ${result.stderr.trim()}`, details: { path } });
  }
}
