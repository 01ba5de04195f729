/**
 * File requests to envd through the SDK's `files` API (`GET /files`, `POST /files`), bytes exact
 * both ways, each bounded by a deadline and the caller's abort, with its failures as SandboxErrors.
 *
 * {@link readAndRemoveFile} starts the removal as soon as the read's response has begun: envd
 * opens the file before it sends the headers (`packages/envd/internal/api/download.go` of
 * e2b-dev/infra: `os.Open`, then `http.ServeContent`), and on Linux an open file that is unlinked
 * is still read whole. So the two requests overlap, and the removal costs no round trip of its own
 * when the body takes longer than one.
 * @module
 */
import { SandboxError, SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { Sandbox } from 'e2b';
import { toSandboxErrorChecked } from './e2b-errors.js';

/** How one file request is bounded: the whole request's deadline in ms, and the caller's abort. */
export interface E2BFileRequest {
  requestTimeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Downloads the file at absolute `path` whole.
 * @throws SandboxError `file_not_found` (also for a symlink loop: envd answers it so),
 *   `is_directory`, `sandbox_gone`, `sandbox_unavailable` (also when the deadline passes).
 * @throws SandkitError `aborted` when `request.signal` aborts the read.
 */
export async function downloadFile(
  sandbox: Sandbox,
  path: string,
  request: E2BFileRequest,
): Promise<Uint8Array> {
  try {
    return await sandbox.files.read(path, { format: 'bytes', ...request });
  } catch (error) {
    if (request.signal?.aborted) throw abortedError('read', path, error);
    throw await toSandboxErrorChecked(sandbox, error, `read ${path}`, path);
  }
}

/**
 * Uploads `bytes` to absolute `path` (envd writes as root, then gives the file to the sandbox user).
 * @param reported the path errors name (the file the caller writes, when `path` is a staging file)
 * @throws SandboxError `sandbox_gone`, `sandbox_unavailable` (also when the deadline passes).
 * @throws SandkitError `aborted` when `request.signal` aborts the upload.
 */
export async function uploadFile(
  sandbox: Sandbox,
  path: string,
  bytes: Uint8Array,
  request: E2BFileRequest,
  reported: string,
): Promise<void> {
  try {
    await sandbox.files.write(
      path,
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      request,
    );
  } catch (error) {
    if (request.signal?.aborted) throw abortedError('write', reported, error);
    throw await toSandboxErrorChecked(sandbox, error, `write ${reported}`, reported);
  }
}

/**
 * Reads the file at `path` raw (a stream, not base64), which must hold exactly `expected` bytes,
 * and removes it, the two requests overlapping (see the module doc).
 * @param requestTimeoutMs deadline of each request
 * @param what what the file holds, for the error message
 * @throws SandboxError `sandbox_gone`; `sandbox_unavailable` when the file cannot be read or
 *   removed, or holds another number of bytes.
 */
export async function readAndRemoveFile(
  sandbox: Sandbox,
  path: string,
  expected: number,
  requestTimeoutMs: number,
  what: string,
): Promise<Buffer> {
  let removal: Promise<unknown> | undefined;
  const remove = (): Promise<unknown> => {
    removal ??= sandbox.files.remove(path, { requestTimeoutMs }).then(
      () => undefined,
      (error: unknown) => error ?? new Error('remove failed'),
    );
    return removal;
  };
  let bytes: Buffer | undefined;
  let failure: unknown;
  try {
    const body = await sandbox.files.read(path, { format: 'stream', requestTimeoutMs });
    void remove();
    bytes = await readExactly(body, expected, path);
  } catch (error) {
    failure = error;
  }
  const removeFailure = await remove();
  failure ??= removeFailure;
  if (failure !== undefined || bytes === undefined) {
    const mapped = await toSandboxErrorChecked(sandbox, failure, `read ${what}`);
    if (mapped.code === SandkitErrorCode.sandboxGone) throw mapped;
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `cannot read and remove ${path}, ${what}, in the E2B sandbox: ${(failure as Error).message ?? String(failure)}`,
      cause: failure,
    });
  }
  return bytes;
}

/** Reads `body` whole into one buffer of `expected` bytes; any other length is an error. */
async function readExactly(
  body: ReadableStream<Uint8Array>,
  expected: number,
  path: string,
): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(expected);
  let filled = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.length > expected) {
      await reader.cancel();
      filled += value.length;
      break;
    }
    bytes.set(value, filled);
    filled += value.length;
  }
  if (filled !== expected) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `${path} held ${filled > expected ? 'more than ' : ''}${filled} bytes where the command's record announced ${expected}`,
    });
  }
  return bytes;
}

function abortedError(action: 'read' | 'write', path: string, cause: unknown): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.aborted,
    message: `${action} of ${path} was aborted`,
    cause,
    details: { path },
  });
}
