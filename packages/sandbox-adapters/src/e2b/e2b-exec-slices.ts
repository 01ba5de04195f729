/**
 * The second request of a command whose head and tail were too big to come back inline (see
 * `e2b-exec-script.ts`): the wrapper left them in the call's slices file, and this reads that file
 * raw through envd's `GET /files` (the SDK's `files.read` as a stream: the body is the file's bytes,
 * not base64) and removes it, so the sandbox keeps nothing of the call but a cut stream's log.
 *
 * The removal starts as soon as the read's response has begun: envd opens the file before it sends
 * the headers (`packages/envd/internal/api/download.go`: `os.Open`, then `http.ServeContent`), and
 * on Linux an open file that is unlinked is still read whole. So the two requests overlap, and the
 * removal costs no round trip of its own when the body takes longer than one.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import type { Sandbox } from 'e2b';
import { toSandboxErrorChecked } from './transport/e2b-errors.js';
import type { ExecRecord } from './e2b-exec-record.js';

/**
 * Fills the four slices of `record` from the slices file at `path` and removes the file; a record
 * without a slices file is returned as it is.
 * @param requestTimeoutMs deadline of each request (the adapter's `fileRequestTimeoutMs`)
 * @throws SandboxError `sandbox_gone`; `sandbox_unavailable` when the file cannot be read or
 *   removed, or does not hold the lengths the record announced.
 */
export async function fetchRecordSlices(
  sandbox: Sandbox,
  record: ExecRecord,
  path: string,
  requestTimeoutMs: number,
): Promise<ExecRecord> {
  const lengths = record.sliceFile;
  if (lengths === undefined) return record;
  const total = lengths.reduce((sum, length) => sum + length, 0);
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
    bytes = await readExactly(body, total, path);
  } catch (error) {
    failure = error;
  }
  const removeFailure = await remove();
  failure ??= removeFailure;
  if (failure !== undefined || bytes === undefined) {
    const mapped = await toSandboxErrorChecked(sandbox, failure, 'read the output of a command');
    if (mapped.code === SandkitErrorCode.sandboxGone) throw mapped;
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `cannot read and remove ${path}, the head and tail of a command's output, in the E2B sandbox: ${(failure as Error).message ?? String(failure)}`,
      cause: failure,
    });
  }
  const [outHead, errHead, outTail] = lengths;
  const at = [0, outHead, outHead + errHead, outHead + errHead + outTail, total];
  const slice = (index: number): Buffer => bytes.subarray(at[index], at[index + 1]);
  return {
    ...record,
    stdoutHead: slice(0),
    stderrHead: slice(1),
    stdoutTail: slice(2),
    stderrTail: slice(3),
  };
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
