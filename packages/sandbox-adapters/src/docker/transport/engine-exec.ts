/**
 * One Engine API exec: create, start, demultiplex stdout/stderr (`docker.modem.demuxStream`), and
 * read the exit code from exec inspect, polled until the engine has recorded it (case C13).
 * @module
 */
import type { Duplex, Readable } from 'node:stream';
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import type { Docker } from './docker-client.js';
import { engineError } from './docker-errors.js';

/** A started exec and its output stream. */
export interface StartedExec {
  exec: Docker.Exec;
  /** Multiplexed output (and, with `stdin`, the input side). */
  stream: Duplex | Readable;
}

/** Options of {@link startEngineExec}. */
export interface EngineExecOptions {
  argv: string[];
  /** User for this exec. @default the container's */
  user?: string;
  /** Attach stdin (hijacked stream); only the channel does, and it writes framed requests. */
  stdin?: boolean;
  /** `NAME=value` pairs added to the exec's environment. */
  env?: string[];
}

/**
 * Creates and starts an exec.
 * @throws SandboxError `sandbox_gone` when the container no longer exists, `sandbox_unavailable` otherwise.
 */
export async function startEngineExec(
  container: Docker.Container,
  options: EngineExecOptions,
): Promise<StartedExec> {
  try {
    const exec = await container.exec({
      Cmd: options.argv,
      AttachStdin: options.stdin === true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      ...(options.user === undefined ? {} : { User: options.user }),
      ...(options.env === undefined ? {} : { Env: options.env }),
    });
    const stream = (await exec.start(options.stdin ? { hijack: true, stdin: true } : {})) as
      | Duplex
      | Readable;
    return { exec, stream };
  } catch (error) {
    throw engineError(error, `cannot run ${options.argv[0]} in container ${container.id.slice(0, 12)}`);
  }
}

/** Routes the multiplexed frames of `stream` to two callbacks. */
export function demultiplex(
  docker: Docker,
  stream: Readable,
  stdout: (chunk: Buffer) => void,
  stderr: (chunk: Buffer) => void,
): void {
  const sink = (write: (chunk: Buffer) => void) => ({
    write(chunk: Buffer): boolean {
      write(chunk);
      return true;
    },
  });
  docker.modem.demuxStream(
    stream,
    sink(stdout) as unknown as NodeJS.WritableStream,
    sink(stderr) as unknown as NodeJS.WritableStream,
  );
}

/** How long {@link readExitCode} polls: the bound C13 asks for. */
export const exitPoll = { attempts: 50, delayMs: 20 } as const;

/**
 * Polls exec inspect until `Running` is false and `ExitCode` is a number. Never guesses 0.
 * @throws SandboxError `exit_status_unavailable` when the engine has not recorded one within the bound.
 */
export async function readExitCode(exec: Docker.Exec, what: string): Promise<number> {
  let last: { Running: boolean; ExitCode: number | null } | undefined;
  for (let attempt = 0; attempt < exitPoll.attempts; attempt++) {
    try {
      last = await exec.inspect();
    } catch (error) {
      throw engineError(error, `cannot read the exit status of ${what}`);
    }
    if (!last.Running && typeof last.ExitCode === 'number') return last.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, exitPoll.delayMs));
  }
  throw new SandboxError({
    code: SandkitErrorCode.exitStatusUnavailable,
    message: `the engine recorded no exit status for ${what} (Running=${last?.Running}, ExitCode=${last?.ExitCode}) within ${exitPoll.attempts * exitPoll.delayMs} ms; the command's result is unknown, not 0`,
    details: { running: last?.Running, exitCode: last?.ExitCode },
  });
}

const runtimeStartFailure =
  /exec failed: unable to start container process|OCI runtime (exec failed|attempted to invoke)|executable file not found in \$PATH|OCI permission denied/;

/**
 * A 126/127 whose stderr is the container runtime's own "cannot start" text means the sandbox could
 * not start `argv0` at all (for example no /bin/sh in the image), not that a command failed.
 */
export function cannotStartError(exitCode: number, stderr: string, argv0: string): SandboxError | undefined {
  if ((exitCode !== 126 && exitCode !== 127) || !runtimeStartFailure.test(stderr)) return undefined;
  return new SandboxError({
    code: SandkitErrorCode.cannotStartCommand,
    message: `the sandbox cannot start \`${argv0}\`: ${stderr.trim().split('\n')[0]}; check that the image has it`,
    details: { argv0, exitCode, stderr },
  });
}

/** Result of {@link runEngineCommand}. */
export interface EngineCommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `argv` as one exec to its end (used for kills, setup, and by tests), bounded by `timeoutMs`.
 * @throws SandboxError `cannot_start_command` when the runtime cannot start argv[0],
 *   `exit_status_unavailable` when no exit status is recorded, `sandbox_unavailable` on timeout.
 */
export async function runEngineCommand(
  docker: Docker,
  container: Docker.Container,
  argv: string[],
  options: { user?: string; timeoutMs?: number } = {},
): Promise<EngineCommandResult> {
  const { exec, stream } = await startEngineExec(container, {
    argv,
    ...(options.user ? { user: options.user } : {}),
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  demultiplex(
    docker,
    stream,
    (chunk) => out.push(chunk),
    (chunk) => err.push(chunk),
  );
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    new Promise<boolean>((resolve) => {
      stream.once('end', () => resolve(true));
      stream.once('close', () => resolve(true));
      stream.once('error', () => resolve(true));
    }),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  stream.destroy();
  if (!ended) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `${argv[0]} did not finish within ${timeoutMs} ms in container ${container.id.slice(0, 12)}`,
    });
  }
  const exitCode = await readExitCode(exec, `\`${argv[0]}\``);
  const stderr = Buffer.concat(err).toString('utf8');
  const startError = cannotStartError(exitCode, stderr, argv[0] ?? '');
  if (startError) throw startError;
  return { exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr };
}
