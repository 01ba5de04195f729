/**
 * The second request of a command whose head and tail were too big to come back inline (see
 * `e2b-exec-script.ts`): the wrapper left them in the call's slices file, and this reads that file
 * raw through envd's `GET /files` (the SDK's `files.read` as a stream: the body is the file's bytes,
 * not base64) and removes it, so the sandbox keeps nothing of the call but a cut stream's log.
 * The removal overlaps the read (transport/e2b-file-requests.ts).
 * @module
 */
import type { Sandbox } from 'e2b';
import { readAndRemoveFile } from './transport/e2b-file-requests.js';
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
  const bytes = await readAndRemoveFile(
    sandbox,
    path,
    total,
    requestTimeoutMs,
    "the head and tail of a command's output",
  );
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
