/**
 * Runs several preparation steps (checkout, setup, model patch, test files, test patch) as ONE
 * shell script in the sandbox, stopping at the first failure. One exec instead of one per step
 * matters on every vendor: a Docker exec costs ~135 ms and an E2B command a network round trip.
 * Each step's combined output and exit code come back between markers and are logged per step.
 * @module
 */
import type { ExecResult, SandboxClient } from '@sandkit/core';
import type { EvalLog } from './eval-log.js';

/** One step: a name for the log and a shell command run in `cwd`. */
export interface PrepareStep {
  name: string;
  command: string;
  /** Sandbox directory the step runs in. */
  cwd: string;
}

/** Output and exit code of one step that ran. */
export interface StepOutcome {
  output: string;
  exitCode: number;
}

/** What {@link runPrepareScript} returns. */
export interface PrepareResult {
  /** Steps that ran, in order; the last one failed when `failed` is set. */
  steps: Map<string, StepOutcome>;
  /** Name of the step that failed, `null` when all succeeded. */
  failed: string | null;
  /** The script's exec result (timeout, abort, duration). */
  exec: ExecResult;
}

const begin = '::sandkit-step-begin ';
const end = '::sandkit-step-end ';

/** The script: each step in a subshell, its stderr merged, framed by markers carrying its exit code. */
export function buildPrepareScript(steps: readonly PrepareStep[], quote: (value: string) => string): string {
  return steps
    .map((step) =>
      [
        `printf '\\n${begin}%s\\n' ${quote(step.name)}`,
        `(cd ${quote(step.cwd)} && { ${step.command}\n}) 2>&1`,
        `code=$?; printf '\\n${end}%s %s\\n' ${quote(step.name)} "$code"; [ "$code" -eq 0 ] || exit 0`,
      ].join('\n'),
    )
    .join('\n');
}

/** Splits the script's stdout back into steps. A step without an end marker was cut (timeout, abort). */
export function parsePrepareOutput(stdout: string): Map<string, StepOutcome> {
  const steps = new Map<string, StepOutcome>();
  let current: { name: string; lines: string[] } | null = null;
  for (const line of stdout.split('\n')) {
    if (line.startsWith(begin)) current = { name: line.slice(begin.length), lines: [] };
    else if (line.startsWith(end) && current !== null) {
      const code = Number(line.slice(line.lastIndexOf(' ') + 1));
      steps.set(current.name, { output: current.lines.join('\n').replace(/\n$/, ''), exitCode: code });
      current = null;
    } else current?.lines.push(line);
  }
  return steps;
}

/** Runs the steps as one script and logs each step's command, exit code and output. */
export async function runPrepareScript(
  client: SandboxClient,
  log: EvalLog,
  steps: readonly PrepareStep[],
  quote: (value: string) => string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<PrepareResult> {
  for (const step of steps) log.note(`${step.name}: $ ${step.command}  (cwd ${step.cwd})`);
  const exec = await log.exec(client, 'prepare script', buildPrepareScript(steps, quote), {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    display: `sh script running the ${steps.length} steps above, output framed per step`,
    logStdout: false,
  });
  const outcomes = parsePrepareOutput(exec.stdout);
  let failed: string | null = null;
  for (const step of steps) {
    const outcome = outcomes.get(step.name);
    if (outcome === undefined) {
      failed ??= step.name;
      continue;
    }
    log.step(step.name, outcome.exitCode, outcome.output);
    if (outcome.exitCode !== 0) failed ??= step.name;
  }
  return { steps: outcomes, failed, exec };
}
