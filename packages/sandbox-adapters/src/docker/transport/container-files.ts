/**
 * Moving bytes in and out of the container through the Engine API's archive endpoints: `PUT`
 * through dockerode with tar-stream's tar (as fast as the hand-written request it replaced, faster
 * at 50 MiB: BENCHMARKS.md, docker-archive-libraries), and `GET` hand-written
 * (archive-request.ts, whose header gives the measured reason) read straight into one buffer the
 * size of the file. Neither holds a second copy of the data.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import tar from 'tar-stream';
import { type ArchiveResponse, requestArchive } from './archive-request.js';
import { engineError, engineStatus } from './docker-errors.js';
import type { EngineContainer } from './engine-container.js';

/** Owner and mode of a file put into the container. */
export interface PutFileOptions {
  mode: number;
  uid: number;
  gid: number;
  signal?: AbortSignal;
}

/**
 * Extracts one file `name` with `data` into the existing directory `dir` of the container:
 * dockerode's `putArchive` (`PUT /containers/{id}/archive?path=dir&noOverwriteDirNonDir=true`,
 * what `docker cp host-file c:dir` sends) with a one-file tar from tar-stream's `pack`, whose data
 * is the caller's buffer as it is (no copy).
 * @throws SandboxError `not_directory` when `dir` (or a parent) is not a directory; `sandbox_gone`
 *   for a 404 (no such container, or on Docker a missing `dir`), `sandbox_unavailable` for other
 *   engine failures; SandkitError `aborted` when `signal` aborts.
 */
export async function putFile(
  target: EngineContainer,
  dir: string,
  name: string,
  data: Uint8Array,
  options: PutFileOptions,
): Promise<void> {
  const pack = tar.pack();
  pack.entry(
    {
      name,
      type: 'file',
      size: data.length,
      mode: options.mode & 0o7777,
      uid: options.uid,
      gid: options.gid,
    },
    Buffer.from(data.buffer, data.byteOffset, data.length),
  );
  pack.finalize();
  try {
    await target.container.putArchive(pack as unknown as NodeJS.ReadableStream, {
      path: dir,
      noOverwriteDirNonDir: 'true',
      ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
    });
  } catch (error) {
    pack.destroy();
    if (options.signal?.aborted) throw aborted('writing into', dir, error);
    const message = (error as Error | undefined)?.message ?? '';
    if (engineStatus(error) !== undefined && /not a directory/i.test(message)) {
      throw new SandboxError({
        code: SandkitErrorCode.notDirectory,
        message: `${dir} (or a parent of it) is not a directory`,
        cause: error,
        details: { path: dir, engine: message },
      });
    }
    throw engineError(error, `cannot copy a file into ${dir}`);
  }
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
