/**
 * readFile and writeFile of a bubblewrap sandbox, done by its exec server inside the sandbox's
 * mount namespace: a path means what it means to the sandbox's commands (its own /tmp, the host
 * read-only), and a symlink that points out of the workspace reaches only what the sandbox sees.
 * @module
 */
import { resolve } from 'node:path';
import {
  type SandboxData,
  SandboxError,
  SandkitError,
  SandkitErrorCode,
  type WriteFileOptions,
} from '@sandkit/core';
import { checkedPath } from '../../paths/checked-path.js';
import { maxFollowedLinks } from '../../paths/follow-links-script.js';
import { fileError } from '../local-files.js';
import type { ExecServer, ServerAnswer } from './exec-server.js';

/**
 * Reads a whole file inside the sandbox. A relative `path` resolves against `workdir`.
 * @throws the errors of local-files.ts `readLocalFile`; SandboxError `sandbox_unavailable` when the
 *   sandbox's bubblewrap process is gone; SandkitError `aborted` when `signal` is aborted first.
 */
export async function readBubblewrapFile(
  server: ExecServer,
  workdir: string,
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const full = resolve(workdir, checkedPath(path));
  if (signal?.aborted) throw fileError(Object.assign(new Error('aborted'), { name: 'AbortError' }), full);
  const answer = await server.request({ t: 'read', id: 0, path: full });
  if (answer.t === 'error') throw answerError(answer, full);
  return answer.data ?? new Uint8Array();
}

/**
 * Writes a whole file inside the sandbox, atomically, as local-files.ts `writeLocalFile` does.
 * A write into a read-only part (the host, a protected path) is refused.
 * @throws the errors of `writeLocalFile`; SandboxError `refused` with `details.readOnly` for a
 *   read-only path; `sandbox_unavailable` when the sandbox's bubblewrap process is gone.
 */
export async function writeBubblewrapFile(
  server: ExecServer,
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
  const full = resolve(workdir, checkedPath(path));
  if (options.signal?.aborted)
    throw fileError(Object.assign(new Error('aborted'), { name: 'AbortError' }), full);
  const answer = await server.request({
    t: 'write',
    id: 0,
    path: full,
    data,
    mode: options.mode,
    maxLinks: maxFollowedLinks,
  });
  if (answer.t === 'error') throw answerError(answer, full);
}

function answerError(answer: Extract<ServerAnswer, { t: 'error' }>, requested: string): SandkitError {
  const path = answer.path ?? requested;
  if (answer.code === 'EGONE') {
    return new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: answer.message,
      details: { path },
    });
  }
  if (answer.code === 'ESPECIAL') {
    return new SandboxError({
      code: SandkitErrorCode.refused,
      message: `${path} is not a regular file (a pipe, socket or device); readFile reads regular files only`,
      details: { path },
    });
  }
  if (answer.code === 'EROFS' || answer.code === 'EACCES' || answer.code === 'EPERM') {
    return new SandboxError({
      code: SandkitErrorCode.refused,
      message: `${path} is read-only in this sandbox (bubblewrap: outside the workspace and the write paths, or a protected path); write inside the workspace`,
      details: { path, readOnly: true, errno: answer.code },
    });
  }
  return fileError(Object.assign(new Error(answer.message), { code: answer.code }), path);
}
