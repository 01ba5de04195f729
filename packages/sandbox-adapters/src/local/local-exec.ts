/**
 * Runs one command for the local adapter: `/bin/sh -c` (or bash) in a new session, so it and
 * everything it starts share one process group that a timeout or abort kills as a whole.
 *
 * Spawned with node:child_process directly, not execa: the contract's overhead budget
 * (≤ 1.2× a raw spawn, see bench/exec-overhead.ts) leaves no room for execa's per-call cost, and
 * the parts execa would add (process-group kill, streaming cap) are written here anyway.
 * @module
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { type ExecOptions, type ExecResult, SandboxError, SandkitErrorCode } from '@sandkit/core';
import {
  assertCommand,
  execDefaults,
  type NormalizedExecOptions,
  normalizeExecOptions,
} from './normalize-exec-options.js';
import { collectedOutput, OutputCollector } from './output-collector.js';
import { drainPipes } from './drain-pipes.js';
import { groupAlive, signalGroup, waitForGroupExit } from './process-group.js';
import { abortedBeforeStart } from './aborted-before-start.js';

/** The non-interactive base environment every command starts from (the caller's `env` wins). */
export const baseEnvironment: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  LC_ALL: 'C.UTF-8',
};

/** How long the pipes may stay open after the exit when no process of the group is left (a setsid child may hold them), in ms. */
const noHolderDrainMs = 5000;

/** What {@link runLocalCommand} needs from its sandbox. */
export interface LocalRunContext {
  /** Absolute working directory of the sandbox. */
  workdir: string;
  /** Called with each spawned process-group id (`alive`), and again once the whole group is gone. */
  track(pgid: number, alive: boolean): void;
}

/**
 * Runs `command` and resolves when the shell has exited and its pipes drained (or the drain grace
 * of 200 ms passed, when background children keep them open). A non-zero exit is a result.
 * @throws SandkitError `invalid_option` for a bad option (nothing runs).
 * @throws SandboxError `cwd_not_found` when the working directory does not exist.
 * @throws SandboxError `cannot_start_command` when the shell cannot be spawned.
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
  return spawnAndCollect(command, cwd, normalized, context, started);
}

function spawnAndCollect(
  command: string,
  cwd: string,
  options: NormalizedExecOptions,
  context: LocalRunContext,
  started: number,
): Promise<ExecResult> {
  const child = spawn(options.shell, ['-c', command], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: process.env.HOME ?? context.workdir,
      ...baseEnvironment,
      ...options.env,
    },
    detached: true,
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const out = child.stdout!;
  const err = child.stderr!;
  const stdout = new OutputCollector(options.maxOutputBytes);
  const stderr = new OutputCollector(options.maxOutputBytes);
  const pid = child.pid;
  let timedOut = false;
  let aborted = false;
  let callbackError: { error: unknown } | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let termSentAt = 0;
  if (pid !== undefined) context.track(pid, true);

  const killGroup = (): void => {
    if (pid === undefined || killTimer !== undefined) return;
    termSentAt = performance.now();
    signalGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), execDefaults.killGraceMs);
  };
  const forward =
    (collector: OutputCollector, callback: ((chunk: Uint8Array) => void) | undefined) => (chunk: Buffer) => {
      collector.push(chunk);
      if (callback === undefined || callbackError !== undefined) return;
      try {
        callback(chunk);
      } catch (error) {
        callbackError = { error };
        killGroup();
      }
    };
  // A read error on a pipe ends that stream early; what was collected so far is still returned.
  out.on('error', () => out.destroy());
  err.on('error', () => err.destroy());
  out.on('data', forward(stdout, options.onStdout));
  err.on('data', forward(stderr, options.onStderr));
  if (child.stdin) {
    child.stdin.on('error', () => undefined); // EPIPE when the command exits without reading all input
    child.stdin.end(options.stdin);
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

  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit, reject) => {
    child.once('error', (error) => {
      out.destroy();
      err.destroy();
      if (pid !== undefined) context.track(pid, false);
      reject(spawnError(error, options.shell, cwd));
    });
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  })
    .finally(() => {
      if (timeout) clearTimeout(timeout);
      options.signal?.removeEventListener('abort', onAbort);
    })
    .then(async ({ code, signal }) => {
      // After a kill, nothing of the group may survive: children get the rest of the grace to act
      // on SIGTERM, then SIGKILL (children that ignore SIGTERM included).
      if (killTimer !== undefined && pid !== undefined) {
        await waitForGroupExit(pid, termSentAt + execDefaults.killGraceMs);
        clearTimeout(killTimer);
        signalGroup(pid, 'SIGKILL');
      }
      // On a loaded host the pipes' last bytes can arrive long after the exit: the short grace is
      // for a live background child holding them; with none left, read to their end (capped).
      const holder = pid !== undefined && groupAlive(pid);
      await drainPipes(out, err, holder ? execDefaults.drainGraceMs : noHolderDrainMs);
      // Background children may still hold the group: keep tracking it so destroy() can end them.
      if (pid !== undefined && !groupAlive(pid)) context.track(pid, false);
      if (callbackError !== undefined) throw callbackError.error;
      return {
        exitCode: code,
        signal,
        ...collectedOutput(stdout, stderr),
        timedOut,
        aborted,
        durationMs: performance.now() - started,
      };
    });
}

/** A spawn failure: a missing working directory (removed under us) or a shell that cannot run. */
function spawnError(error: NodeJS.ErrnoException, shell: string, cwd: string): SandboxError {
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
