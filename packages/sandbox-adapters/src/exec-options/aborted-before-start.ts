import type { ExecResult } from '@sandkit/core';

/**
 * The result of an exec whose signal was already aborted before the command started: nothing
 * ran, so there is no exit code, no signal and no output. Shared by every adapter.
 * @param started `performance.now()` when the call began
 */
export function abortedBeforeStart(started: number): ExecResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: true,
    durationMs: performance.now() - started,
  };
}
