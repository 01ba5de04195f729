/**
 * Frames several steps (tree, setup, model patch, tests) into ONE shell script run in the sandbox,
 * stopping at the first failure. One exec instead of one per step
 * matters on every vendor: a Docker exec costs ~135 ms and an E2B command a network round trip.
 * Each step's combined output and exit code come back between markers and are logged per step.
 * @module
 */

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
  /** The step's exit code; -1 when it was cut (no end marker: timeout, abort, output cap). */
  exitCode: number;
  /** `true` when the step was cut before its end marker. */
  cut?: true;
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

/** Splits the script's stdout back into steps. A step without an end marker was cut (timeout, abort): exit code -1, `cut`. */
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
  if (current !== null)
    steps.set(current.name, { output: current.lines.join('\n'), exitCode: -1, cut: true });
  return steps;
}
