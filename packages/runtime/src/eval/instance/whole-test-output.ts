/**
 * The test step's output when the evaluation script printed more than the host keeps of it (the
 * exec's `maxOutputBytes`): the adapters keep the whole stream where the command ran
 * (`ExecResult.outputLog`, see DESIGN.md "Output is captured where the command runs"), so the
 * test step is cut out of that whole log, as the official harness keeps `test_output.txt` whole.
 * A cut made by sandkit's own cap is never graded as the model's failure: when the whole log
 * cannot be had (no `outputLog`, over {@link gradableOutputBytes}, unreadable) the step reports
 * why, and the kept head ends with {@link outputCutMarker}, which `sandkit grade` reads too.
 * @module
 */
import type { ExecResult, SandboxClient } from '@sandkit/core';
export { outputCutMarker } from './eval-markers.js';

/** Bytes of the whole script output read back from the sandbox to grade; beyond it the instance errors. */
export const gradableOutputBytes = 1024 * 1024 * 1024;

/** The test step read from the whole log, or why it could not be. */
export type WholeTestOutput = { output: Buffer; exitCode: number | null } | { output: null; reason: string };

const stepBegin = Buffer.from('\n::sandkit-step-begin tests\n');
const stepEnd = Buffer.from('\n::sandkit-step-end tests ');

/** The reason text for a script output of `bytes` bytes that sandkit did not grade. */
export function notGradedReason(bytes: number, why: string): string {
  return `test output over ${Math.floor(bytes / (1024 * 1024))} MiB, cut by sandkit: not graded (${why})`;
}

/**
 * Reads the whole stdout of `exec` (which was cut) from the sandbox and cuts the test step out of
 * it: its output as `parsePrepareOutput` gives it, and its exit code (`null` when the log has no
 * end marker: the script was killed during the tests). Never throws.
 */
export async function readWholeTestOutput(
  client: SandboxClient,
  exec: ExecResult,
  signal?: AbortSignal,
): Promise<WholeTestOutput> {
  if (exec.outputLog === undefined)
    return { output: null, reason: notGradedReason(exec.stdoutBytes, 'the adapter keeps no whole log') };
  if (exec.stdoutBytes > gradableOutputBytes)
    return {
      output: null,
      reason: notGradedReason(
        exec.stdoutBytes,
        `over the ${gradableOutputBytes / (1024 * 1024)} MiB sandkit reads back to grade`,
      ),
    };
  let whole: Buffer;
  try {
    const bytes = await client.readFile(exec.outputLog.stdout, signal === undefined ? {} : { signal });
    whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    return {
      output: null,
      reason: notGradedReason(
        exec.stdoutBytes,
        `the whole log ${exec.outputLog.stdout} could not be read: ${(error as Error).message}`,
      ),
    };
  }
  const begin = whole.indexOf(stepBegin);
  if (begin < 0)
    return { output: null, reason: notGradedReason(exec.stdoutBytes, 'the whole log has no test step') };
  const start = begin + stepBegin.length;
  const end = whole.lastIndexOf(stepEnd);
  if (end < start) return { output: whole.subarray(start), exitCode: null };
  const codeEnd = whole.indexOf(0x0a, end + stepEnd.length);
  const code = Number(whole.toString('latin1', end + stepEnd.length, codeEnd < 0 ? whole.length : codeEnd));
  // the newline before the end marker is the marker's own; the step's last newline goes as in parsePrepareOutput
  const last = end > start && whole[end - 1] === 0x0a ? end - 1 : end;
  return { output: whole.subarray(start, last), exitCode: Number.isInteger(code) ? code : null };
}
