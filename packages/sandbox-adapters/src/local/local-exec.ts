/**
 * Runs one command for the local adapter: `/bin/sh -c` (or bash) through execa, in a new session,
 * so it and everything it starts share one process group that a timeout or abort kills as a
 * whole. Its stdout and stderr go straight to log files in the sandbox's log directory
 * (local-capture.ts): no pipe reaches this process, so a background child that keeps writing
 * cannot hold the call, and a command printing gigabytes costs the host two reads of the cap.
 *
 * execa runs the process (spawn, exit status, signal); the guarantees it does not give are kept
 * here: the process-group kill (execa kills only the direct child), stdin closed when none is
 * given, and the cap (the child never writes into this process at all).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { type ExecOptions, type ExecResult, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { execa } from 'execa';
import type { OutputLogRetention } from '../capture/output-log-retention.js';
import { abortedBeforeStart } from '../exec-options/aborted-before-start.js';
import { baseEnvironment } from '../exec-options/base-environment.js';
import { type LocalCapture, openExecCapture } from './local-capture.js';
import {
  assertCommand,
  execDefaults,
  type NormalizedExecOptions,
  normalizeExecOptions,
} from '../exec-options/normalize-exec-options.js';
import { groupAlive, killTagged, signalGroup, waitForGroupExit } from './transport/process-group.js';

/**
 * The environment variables that tag every process a local command starts, set after the caller's
 * `env` so a command cannot drop them by accident: `SANDKIT_SANDBOX_ID` (the sandbox's handle id)
 * and `SANDKIT_EXEC_ID` (one per command). They survive `setsid` and `cd`, so a timeout or abort
 * can SIGKILL what the command detached and `destroy()` what the sandbox started.
 */
export const processTag = { sandbox: 'SANDKIT_SANDBOX_ID', exec: 'SANDKIT_EXEC_ID' } as const;

/** How long a timeout or abort keeps sweeping the command's tagged processes, in ms. */
const sweepMs = 2000;

/** What {@link runLocalCommand} needs from its sandbox. */
export interface LocalRunContext {
  /** Absolute working directory of the sandbox. */
  workdir: string;
  /** The sandbox's handle id, set as `SANDKIT_SANDBOX_ID` in every command's environment. */
  sandboxId: string;
  /** Names and retires the sandbox's output logs (in its log directory). */
  logs: OutputLogRetention;
  /** Called with each spawned process-group id (`alive`), and again once the whole group is gone. */
  track(pgid: number, alive: boolean): void;
}

/**
 * Runs `command` and resolves as soon as its shell has exited (background children that outlive
 * it write on into the log, not into the result). A non-zero exit is a result.
 * @throws SandkitError `invalid_option` for a bad option (nothing runs).
 * @throws SandboxError `cwd_not_found` when the working directory does not exist.
 * @throws SandboxError `cannot_start_command` when the shell cannot be spawned or the log
 *   directory cannot be written.
 * @throws the first error thrown by `onStdout` / `onStderr` (the command is killed first).
 */
export async function runLocalCommand(
  command: string,
  options: ExecOptions,
  context: LocalRunContext,
): Promise<ExecResult> {
  assertCommand(command);
  const normalized = normalizeExecOptions(options);
  const started = performance.now();
  const cwd = normalized.cwd === undefined ? context.workdir : resolve(context.workdir, normalized.cwd);
  if (normalized.cwd !== undefined) {
    await assertDirectory(cwd, isAbsolute(normalized.cwd) ? normalized.cwd : cwd);
  }
  if (normalized.signal?.aborted) return abortedBeforeStart(started);
  const capture = openExecCapture(context.logs, normalized);
  return spawnCaptured(command, cwd, normalized, context, capture, started);
}

async function spawnCaptured(
  command: string,
  cwd: string,
  options: NormalizedExecOptions,
  context: LocalRunContext,
  capture: LocalCapture,
  started: number,
): Promise<ExecResult> {
  const execId = randomUUID();
  const subprocess = execa(options.shell, ['-c', command], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: process.env.HOME ?? context.workdir,
      ...baseEnvironment,
      ...options.env,
      [processTag.sandbox]: context.sandboxId,
      [processTag.exec]: execId,
    },
    extendEnv: false,
    detached: true,
    cleanup: false,
    reject: false,
    buffer: false,
    stdin: options.stdin === undefined ? 'ignore' : 'pipe',
    stdout: nativeFd(capture.fds.stdout),
    stderr: nativeFd(capture.fds.stderr),
  });
  const pid = subprocess.pid;
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  let termSentAt = 0;
  if (pid !== undefined) context.track(pid, true);

  const killGroup = (): void => {
    if (pid === undefined || killTimer !== undefined) return;
    termSentAt = performance.now();
    signalGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), execDefaults.killGraceMs);
  };
  capture.start(killGroup);
  if (subprocess.stdin) {
    subprocess.stdin.on('error', () => undefined); // EPIPE when the command exits without reading all input
    subprocess.stdin.end(options.stdin);
  }
  const timeout =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          killGroup();
        }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    killGroup();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const exit = await subprocess;
  if (timeout) clearTimeout(timeout);
  options.signal?.removeEventListener('abort', onAbort);
  if (exit.exitCode === undefined && exit.signal === undefined) {
    // It never ran: a working directory removed under us, or a shell that cannot be spawned.
    capture.close(false);
    if (pid !== undefined) context.track(pid, false);
    throw spawnError(exit.cause, options.shell, cwd);
  }
  // After a kill, nothing of the group may survive: children get the rest of the grace to act on
  // SIGTERM, then SIGKILL (children that ignore SIGTERM included).
  if (killTimer !== undefined && pid !== undefined) {
    await waitForGroupExit(pid, termSentAt + execDefaults.killGraceMs);
    clearTimeout(killTimer);
    signalGroup(pid, 'SIGKILL');
    // Processes that left the group with setsid (and the directory with cd) carry the tag.
    await killTagged(processTag.exec, execId, Date.now() + sweepMs);
  }
  // Background children may still hold the group: keep tracking it so destroy() can end them.
  if (pid !== undefined && !groupAlive(pid)) context.track(pid, false);
  const output = await capture.finish();
  return {
    exitCode: exit.exitCode ?? null,
    signal: exit.signal ?? null,
    ...output,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

/**
 * A file descriptor as an execa stdio value. execa hands any integer to `spawn` as is, but its
 * types only list 3–9 (the descriptors of this process a child may inherit by default).
 */
function nativeFd(fd: number): 3 {
  return fd as 3;
}

/** A spawn failure: a missing working directory (removed under us) or a shell that cannot run. */
function spawnError(cause: unknown, shell: string, cwd: string): SandboxError {
  const error = (cause ?? new Error('the process did not start')) as NodeJS.ErrnoException;
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    return new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `cannot start ${shell} in ${cwd}: ${error.message}; the working directory (or the shell) is missing`,
      cause: error,
      details: { cwd, shell },
    });
  }
  return new SandboxError({
    code: SandkitErrorCode.cannotStartCommand,
    message: `cannot spawn ${shell} in ${cwd}: ${error.message}`,
    cause: error,
    details: { cwd, shell },
  });
}

async function assertDirectory(path: string, shown: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `working directory ${shown} does not exist in the sandbox (or is not a directory); create it first or pass another cwd`,
      details: { cwd: path },
    });
  }
}
