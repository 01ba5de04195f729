/**
 * Runs one command of a bubblewrap sandbox through its exec server: the same contract as
 * local-exec.ts (output in log files read back by local-capture.ts, the group killed on timeout
 * or abort, detached children swept by their `SANDKIT_EXEC_ID` tag), with the spawn and the group
 * signals done inside the sandbox's PID namespace by the server.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { type ExecOptions, type ExecResult, SandboxError, SandkitErrorCode } from '@sandkit/core';
import type { OutputLogRetention } from '../../capture/output-log-retention.js';
import { abortedBeforeStart } from '../../exec-options/aborted-before-start.js';
import { openExecCapture } from '../local-capture.js';
import { baseEnvironment } from '../../exec-options/base-environment.js';
import { processTag } from '../local-exec.js';
import {
  assertCommand,
  execDefaults,
  normalizeExecOptions,
} from '../../exec-options/normalize-exec-options.js';
import { killTagged } from '../transport/process-group.js';
import type { ExecServer } from './exec-server.js';

/** What {@link runBubblewrapCommand} needs from its sandbox. */
export interface BubblewrapRunContext {
  readonly workdir: string;
  readonly sandboxId: string;
  readonly logs: OutputLogRetention;
  /** The server to run on (the session may replace it when a protected path appears). */
  server(): Promise<ExecServer>;
  /** Variables every command gets before the caller's `env` (the proxy's, when there is one). */
  readonly env: Readonly<Record<string, string>>;
}

/** How long a timeout or abort keeps sweeping the command's tagged processes, in ms. */
const sweepMs = 2000;

/**
 * Runs `command` in the sandbox and resolves once its shell has exited.
 * @throws SandkitError `invalid_option` for a bad option (nothing runs).
 * @throws SandboxError `cwd_not_found` when the working directory does not exist in the sandbox.
 * @throws SandboxError `cannot_start_command` when the log files cannot be made or the shell not spawned.
 * @throws SandboxError `sandbox_unavailable` when the sandbox's bubblewrap process is gone.
 * @throws the first error thrown by `onStdout` / `onStderr` (the command is killed first).
 */
export async function runBubblewrapCommand(
  command: string,
  options: ExecOptions,
  context: BubblewrapRunContext,
): Promise<ExecResult> {
  assertCommand(command);
  const normalized = normalizeExecOptions(options);
  const started = performance.now();
  const cwd = normalized.cwd === undefined ? context.workdir : resolve(context.workdir, normalized.cwd);
  const server = await context.server();
  if (normalized.signal?.aborted) return abortedBeforeStart(started);
  const capture = openExecCapture(context.logs, normalized);
  const execId = randomUUID();
  const run = server.spawn({
    shell: normalized.shell,
    command,
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: process.env.HOME ?? context.workdir,
      ...baseEnvironment,
      ...context.env,
      ...normalized.env,
      [processTag.sandbox]: context.sandboxId,
      [processTag.exec]: execId,
    },
    stdout: capture.paths.stdout,
    stderr: capture.paths.stderr,
    stdin: normalized.stdin,
  });
  const spawned = await run.started;
  if ('t' in spawned) {
    capture.close(false);
    throw startError(spawned, normalized.shell, cwd, normalized.cwd);
  }
  const pid = spawned.pid;
  let timedOut = false;
  let aborted = false;
  let killed: Promise<unknown> | undefined;
  const killGroup = (): void => {
    killed ??= server.request({ t: 'kill', id: 0, pgid: pid, graceMs: execDefaults.killGraceMs });
  };
  capture.start(killGroup);
  const timeout =
    normalized.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          killGroup();
        }, normalized.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    killGroup();
  };
  normalized.signal?.addEventListener('abort', onAbort, { once: true });
  const exit = await run.exited;
  if (timeout) clearTimeout(timeout);
  normalized.signal?.removeEventListener('abort', onAbort);
  if (killed !== undefined) {
    // The server replies once no process of the group is left (SIGKILL after the grace).
    await killed;
    await killTagged(processTag.exec, execId, Date.now() + sweepMs);
  }
  const output = await capture.finish();
  return {
    exitCode: exit.code,
    signal: exit.signal,
    ...output,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

function startError(
  reply: { code: string; message: string; path?: string },
  shell: string,
  cwd: string,
  asked: string | undefined,
): SandboxError {
  if (reply.code === 'EGONE') {
    return new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: reply.message,
      details: { cwd },
    });
  }
  if (reply.code === 'ENOENT' && reply.path === cwd) {
    const shown = asked !== undefined && isAbsolute(asked) ? asked : cwd;
    return new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `working directory ${shown} does not exist in the sandbox (or is not a directory); create it first or pass another cwd`,
      details: { cwd },
    });
  }
  return new SandboxError({
    code: SandkitErrorCode.cannotStartCommand,
    message: `cannot spawn ${shell} in ${cwd}: ${reply.message}`,
    details: { cwd, shell, code: reply.code },
  });
}
