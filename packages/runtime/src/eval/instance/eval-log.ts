/**
 * The per-instance `eval.log`: every command the harness ran in the sandbox, its exit code, its
 * wall time, and the start of its output, in order.
 * @module
 */
import { type ExecOptions, type ExecResult, type SandboxClient, truncateUtf8 } from '@sandkit/core';

/** Bytes of each stream copied into the log per command; test output goes to `test_output.txt` whole. */
const logOutputBytes = 8_192;

/** Collects the lines of one instance's `eval.log`. */
export class EvalLog {
  readonly #lines: string[] = [];
  readonly #startedAt = performance.now();

  /** Adds a free-form line, stamped with the seconds since the instance started. */
  note(message: string): void {
    this.#lines.push(`[${this.#elapsed()}] ${message}`);
  }

  /**
   * Runs `command` through `client.exec` and logs it: the command, the exit code (or the signal,
   * timeout, abort), the duration in ms and the first {@link logOutputBytes} of each stream.
   * `display` replaces the command text in the log; `logStdout: false` leaves stdout out (kept elsewhere).
   * Never throws for a non-zero exit; a thrown SandboxError is logged and re-thrown.
   */
  async exec(
    client: SandboxClient,
    label: string,
    command: string,
    options: ExecOptions & { display?: string; logStdout?: boolean } = {},
  ): Promise<ExecResult> {
    const { display, logStdout = true, ...execOptions } = options;
    this.note(
      `${label}: $ ${display ?? command}${options.cwd === undefined ? '' : `  (cwd ${options.cwd})`}`,
    );
    let result: ExecResult;
    try {
      result = await client.exec(command, execOptions);
    } catch (error) {
      this.note(`${label}: threw ${(error as Error).name}: ${(error as Error).message}`);
      throw error;
    }
    const end = result.timedOut
      ? 'timed out'
      : result.aborted
        ? 'aborted'
        : result.exitCode === null
          ? `killed by ${result.signal}`
          : `exit ${result.exitCode}`;
    this.note(`${label}: ${end} in ${Math.round(result.durationMs)} ms`);
    if (logStdout) this.#output('stdout', result.stdout);
    this.#output('stderr', result.stderr);
    return result;
  }

  /** Logs one step of a script run earlier: its exit code and output. */
  step(label: string, exitCode: number, output: string): void {
    this.note(`${label}: exit ${exitCode}`);
    this.#output('output', output);
  }

  /** The whole log, one entry per line, ending with a newline. */
  text(): string {
    return `${this.#lines.join('\n')}\n`;
  }

  #output(stream: string, text: string): void {
    if (text.trim() === '') return;
    const cut = truncateUtf8(text, logOutputBytes);
    const more = cut.truncated ? `\n    … (${Buffer.byteLength(text) - logOutputBytes} more bytes)` : '';
    this.#lines.push(`  ${stream}:\n${cut.text.replace(/^/gm, '    ').trimEnd()}${more}`);
  }

  #elapsed(): string {
    return `${((performance.now() - this.#startedAt) / 1000).toFixed(3)}s`;
  }
}
