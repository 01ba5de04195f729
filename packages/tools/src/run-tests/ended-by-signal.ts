/**
 * Which signal ended a test run. run_tests wraps the command in a shell (`{ CMD\n} 2>&1`), so a
 * runner killed by a signal usually shows up as the shell's exit status 128 + N rather than as a
 * signal of its own; both forms are read here.
 * @module
 */
import { constants } from 'node:os';

/** Exit statuses 129..(128 + 64) are the shell's report of a child killed by signal N. */
const shellSignalBase = 128;
const highestSignal = 64;

/**
 * The name of the signal that ended a run (`'SIGSEGV'`, `'SIGKILL'`, …), or `undefined`.
 * `signal` (the process's own) wins; otherwise an exit status of 128 + N names signal N when N is
 * a signal this platform knows. A run that timed out or was aborted was killed by sandkit itself,
 * and gets `undefined`. Pure; never throws.
 */
export function endedBySignal(run: {
  exitCode: number | null;
  signal?: string | null;
  timedOut: boolean;
  aborted?: boolean;
}): string | undefined {
  if (run.timedOut || run.aborted === true) return undefined;
  if (typeof run.signal === 'string' && run.signal !== '') return run.signal;
  const code = run.exitCode;
  if (code === null || code <= shellSignalBase || code > shellSignalBase + highestSignal) return undefined;
  const number = code - shellSignalBase;
  for (const [name, value] of Object.entries(constants.signals)) if (value === number) return name;
  return undefined;
}
