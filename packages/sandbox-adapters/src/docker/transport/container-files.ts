/**
 * Moving bytes in and out of the container through the Engine API's archive endpoints, each a
 * request on a socket of its own (archive-request.ts): `PUT /containers/{id}/archive` with a
 * one-file tar whose data part is the caller's buffer, written as it is, and
 * `GET /containers/{id}/archive` read straight into one buffer the size of the file. Neither holds
 * a second copy of the data.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import {
  type ArchiveResponse,
  type PutArchiveResponse,
  putArchiveRequest,
  requestArchive,
} from './archive-request.js';
import { engineError } from './docker-errors.js';
import type { EngineContainer } from './engine-container.js';
import { tarOneFileParts } from './tar-archive.js';

/** Owner and mode of a file put into the container. */
export interface PutFileOptions {
  mode: number;
  uid: number;
  gid: number;
  signal?: AbortSignal;
}

/**
 * Extracts one file `name` with `data` into the existing directory `dir` of the container.
 * @throws SandboxError `not_directory` / `file_not_found` when `dir` is not a directory or is
 *   missing, `sandbox_gone` / `sandbox_unavailable` for engine failures.
 */
export async function putFile(
  target: EngineContainer,
  dir: string,
  name: string,
  data: Uint8Array,
  options: PutFileOptions,
): Promise<void> {
  const parts = tarOneFileParts({ name, data, mode: options.mode, uid: options.uid, gid: options.gid });
  let response: PutArchiveResponse;
  try {
    response = await putArchiveRequest(target.connection, target.container.id, dir, parts, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw aborted('writing into', dir, error);
    throw engineError(error, `cannot copy a file into ${dir}`);
  }
  if (response.statusCode === 200) return;
  if (/not a directory/i.test(response.message)) {
    throw new SandboxError({
      code: SandkitErrorCode.notDirectory,
      message: `${dir} (or a parent of it) is not a directory`,
      details: { path: dir, engine: response.message },
    });
  }
  throw statusError(response, `cannot copy a file into ${dir}`);
}

/** What {@link getFile} found at a path. */
export type ArchivedFile =
  | { kind: 'file'; data: Uint8Array }
  /** Anything the caller must resolve another way: missing, a directory, a symlink, a special file. */
  | { kind: 'unresolved'; reason: string };

/**
 * Reads the regular file at absolute `path` from an archive of it. The engine does not follow a
 * symlink the way the kernel does (it resolves `..` on the path as written), so `path` should be
 * canonical (`readlink -f`); a symlink found there is `unresolved`. Read by the engine, so the
 * sandbox user's read permission is not checked.
 * @param sizeHint the size in bytes the file had a moment ago (see `ArchiveRequestOptions.sizeHint`)
 * @returns `unresolved` for a missing path, a directory, a symlink or a special file (the caller
 *   reads it another way to report the right error)
 * @throws SandboxError `sandbox_gone` / `sandbox_unavailable` for engine failures other than a
 *   missing path; SandkitError `aborted` when `signal` aborts.
 */
export async function getFile(
  target: EngineContainer,
  path: string,
  signal?: AbortSignal,
  sizeHint?: number,
): Promise<ArchivedFile> {
  let response: ArchiveResponse;
  try {
    response = await requestArchive(target.connection, target.container.id, path, { signal, sizeHint });
  } catch (error) {
    if (signal?.aborted) throw aborted('reading', path, error);
    throw engineError(error, `cannot read ${path}`);
  }
  if (response.kind === 'status') {
    // 404 means a missing path as well as a missing container: let the caller tell them apart.
    if (response.statusCode === 404) return { kind: 'unresolved', reason: 'not found' };
    throw statusError(response, `cannot read ${path}`);
  }
  const { entry } = response;
  if (entry.kind === 'file')
    return {
      kind: 'file',
      data: new Uint8Array(entry.data.buffer, entry.data.byteOffset, entry.data.length),
    };
  return { kind: 'unresolved', reason: entry.kind };
}

/** The engine's answer other than 200, as the error `engineError` makes of a failed engine call. */
function statusError(response: { statusCode: number; message: string }, what: string): SandboxError {
  return engineError(
    { statusCode: response.statusCode, message: `(HTTP code ${response.statusCode}) ${response.message}` },
    what,
  );
}

function aborted(doing: 'reading' | 'writing into', path: string, cause: unknown): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.aborted,
    message: `${doing} ${path} was aborted`,
    cause,
    details: { path },
  });
}
