/**
 * `SandboxClient.exec` for the Docker adapter, plus the raw runner the file operations use.
 * Same ExecResult semantics as the local adapter: exit codes are data, death by signal gives
 * `exitCode: null` and the signal's name, output is capped while it streams.
 * @module
 */
import { constants } from 'node:os';
import {
  type ExecOptions,
  type ExecResult,
  formatCommand,
  SandboxError,
  SandkitErrorCode,
} from '@sandkit/core';
import { type CommandRequest, logKept } from '../capture/command-run.js';
import { capturedOutput, OutputWindow } from '../capture/output-window.js';
import { type CarriedOutcome, carryCommand } from './carry-command.js';
import { normalizeDockerExecOptions } from './docker-exec-options.js';
import { assertLive, type DockerSandboxState } from './docker-sandbox-state.js';

const signalNames = new Map(
  Object.entries(constants.signals).map(([name, number]) => [number as number, name]),
);

/**
 * Runs `command` with `/bin/sh -c` (or bash) in its own session inside the container, its output
 * captured in a log under {@link dockerOutputLogDir} (see capture/capture-script.ts): without
 * streaming callbacks only the head and tail of each stream cross the Engine API socket.
 * @throws SandkitError `invalid_option` for bad options; SandboxError `cwd_not_found`,
 *   `sandbox_destroyed`, `sandbox_gone`, `sandbox_unavailable`, `cannot_start_command`
 *   (no setsid or shell in the image), `exit_status_unavailable`.
 */
export async function dockerExec(
  state: DockerSandboxState,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const normalized = normalizeDockerExecOptions(command, options, state.options.workdir);
  assertLive(state);
  const started = performance.now();
  const stdout = new OutputWindow(normalized.maxOutputBytes);
  const stderr = new OutputWindow(normalized.maxOutputBytes);
  const live = normalized.onStdout !== undefined || normalized.onStderr !== undefined;
  const { log, drop } = state.logs.next();
  let outcome: CarriedOutcome = { end: undefined, sizes: undefined, timedOut: false, aborted: true };
  if (normalized.signal?.aborted) state.logs.undrop(drop);
  else {
    outcome = await carryCommand(
      state,
      {
        cwd: normalized.cwd,
        shell: normalized.shell,
        command,
        env: normalized.env,
        log,
        cap: normalized.maxOutputBytes,
        mode: live ? 'follow' : 'slices',
        drop,
      },
      normalized.stdin,
      {
        stdout: (chunk) => {
          stdout.push(chunk);
          normalized.onStdout?.(chunk);
        },
        stderr: (chunk) => {
          stderr.push(chunk);
          normalized.onStderr?.(chunk);
        },
      },
      { timeoutMs: normalized.timeoutMs, signal: normalized.signal },
    );
  }
  const { end, sizes } = outcome;
  if (end?.kind === 'cwd-missing') throw cwdNotFound(normalized.cwd);
  if (end?.kind === 'not-started') throw cannotStart(end.message, end.status);
  const kept = sizes !== undefined && logKept(normalized.maxOutputBytes, sizes);
  if (kept) state.logs.keptLog(log);
  return {
    exitCode: end?.kind === 'exit' ? end.code : null,
    signal: end?.kind === 'signal' ? (signalNames.get(end.signal) ?? `SIG${end.signal}`) : null,
    ...capturedOutput(
      stdout,
      stderr,
      sizes,
      kept ? { stdout: `${log}.out`, stderr: `${log}.err` } : undefined,
    ),
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    durationMs: performance.now() - started,
  };
}

/** Raw result of {@link runInternalScript}: bytes, uncapped. */
export interface InternalScriptResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * The request of one of sandkit's own short scripts (a write's or a file check's): `/bin/sh`, no
 * environment of the user's, output straight back uncaptured (`direct`, no cap), a fresh log base
 * from the sandbox's retention (with the kept log it retires, if any).
 */
export function ownScriptRequest(
  state: DockerSandboxState,
  cwd: string,
  command: string,
): Omit<CommandRequest, 'stdinPath'> {
  const { log, drop } = state.logs.next();
  return { cwd, shell: '/bin/sh', command, env: [], log, cap: Number.MAX_SAFE_INTEGER, mode: 'direct', drop };
}

/**
 * Runs sandkit's own `script` (POSIX sh, arguments as `$1…`) in the workdir, keeping all stdout
 * bytes (binary-safe, no cap). Used by readFile/writeFile.
 * @throws the SandboxErrors of {@link dockerExec}.
 */
export async function runInternalScript(
  state: DockerSandboxState,
  script: string,
  args: string[],
  signal?: AbortSignal,
): Promise<InternalScriptResult> {
  assertLive(state);
  if (signal?.aborted)
    throw new SandboxError({ code: SandkitErrorCode.aborted, message: 'the file operation was aborted' });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const { end, aborted } = await carryCommand(
    state,
    ownScriptRequest(state, state.options.workdir, `set -- ${formatCommand(args)}\n${script}`),
    undefined,
    { stdout: (chunk) => out.push(chunk), stderr: (chunk) => err.push(chunk) },
    { timeoutMs: undefined, signal },
  );
  if (aborted)
    throw new SandboxError({ code: SandkitErrorCode.aborted, message: 'the file operation was aborted' });
  if (end?.kind === 'cwd-missing') throw cwdNotFound(state.options.workdir);
  if (end?.kind === 'not-started') throw cannotStart(end.message, end.status);
  return {
    exitCode: end?.kind === 'exit' ? end.code : null,
    stdout: Buffer.concat(out),
    stderr: Buffer.concat(err).toString('utf8'),
  };
}

function cwdNotFound(cwd: string): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.cwdNotFound,
    message: `working directory ${cwd} does not exist in the sandbox (or is not accessible); create it first or pass another cwd`,
    details: { cwd },
  });
}

function cannotStart(message: string, status: number): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.cannotStartCommand,
    message: `the sandbox cannot start \`setsid\`/\`/bin/sh\`: ${message}`,
    details: { argv0: 'setsid', status },
  });
}
