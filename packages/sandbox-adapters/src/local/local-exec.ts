/**
 * Runs one command for the local adapter: `/bin/sh -c` (or bash) in a new session, so it and
 * everything it starts share one process group that a timeout or abort kills as a whole.
 *
 * Spawned with node:child_process directly, not execa: the contract's own overhead budget
 * (≤ 1.2× a raw spawn, see bench/exec-overhead) leaves no room for execa's ~4 ms per call, and
 * the parts execa would add (process-group kill, streaming cap) are written here anyway.
 * @module
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { type ExecOptions, type ExecResult, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { OutputCollector } from './output-collector.js';

/** Defaults applied by {@link normalizeExecOptions}. */
export const execDefaults = {
  maxOutputBytes: 1024 * 1024,
  /** After SIGTERM, ms before SIGKILL. */
  killGraceMs: 1000,
  /** After the shell exits, ms to wait for pipes held open by background children. */
  drainGraceMs: 200,
} as const;

/** The non-interactive base environment every command starts from. */
export const baseEnvironment: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  LC_ALL: 'C.UTF-8',
};

interface RunContext {
  /** Absolute working directory of the sandbox. */
  workdir: string;
  /** Called with each spawned process-group id (`alive`), and again once the whole group is gone. */
  track(pgid: number, alive: boolean): void;
}

/**
 * Runs `command` and resolves when the shell has exited and its pipes drained (or the drain grace
 * passed). Never rejects for a non-zero exit.
 * @throws SandboxError `cwd_not_found` when the working directory does not exist.
 */
export async function runLocalCommand(command: string, options: ExecOptions, context: RunContext): Promise<ExecResult> {
  const maxOutputBytes = options.maxOutputBytes ?? execDefaults.maxOutputBytes;
  if (!Number.isInteger(maxOutputBytes) || maxOutputBytes < 0) {
    throw new RangeError(`maxOutputBytes must be a non-negative integer, got ${options.maxOutputBytes}`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${options.timeoutMs}`);
  }
  const cwd = options.cwd === undefined ? context.workdir : resolveCwd(context.workdir, options.cwd);
  if (options.cwd !== undefined) await assertDirectory(cwd);

  const started = performance.now();
  const shell = options.shell === 'bash' ? '/bin/bash' : '/bin/sh';
  const child = spawn(shell, ['-c', command], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? context.workdir, ...baseEnvironment, ...options.env },
    detached: true,
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const out = child.stdout!;
  const err = child.stderr!;
  const stdout = new OutputCollector(maxOutputBytes);
  const stderr = new OutputCollector(maxOutputBytes);
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const pid = child.pid;
  if (pid !== undefined) context.track(pid, true);

  const killGroup = (): void => {
    if (pid === undefined || killTimer !== undefined) return;
    signalGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), execDefaults.killGraceMs);
  };

  out.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    options.onStdout?.(chunk);
  });
  err.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    options.onStderr?.(chunk);
  });
  if (child.stdin) {
    child.stdin.on('error', () => {}); // EPIPE when the command exits without reading all input
    child.stdin.end(typeof options.stdin === 'string' ? options.stdin : Buffer.from(options.stdin ?? new Uint8Array()));
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
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', (error) => reject(new SandboxError({ code: SandkitErrorCode.sandboxUnavailable, message: `cannot spawn ${shell}: ${error.message}`, cause: error })));
    child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
  }).finally(() => {
    if (timeout) clearTimeout(timeout);
    options.signal?.removeEventListener('abort', onAbort);
  });

  // After a kill, make sure nothing of the group survives (children that ignored SIGTERM).
  if ((timedOut || aborted) && pid !== undefined) {
    if (killTimer) clearTimeout(killTimer);
    signalGroup(pid, 'SIGKILL');
  }
  await drain(out, err, execDefaults.drainGraceMs);
  if (killTimer) clearTimeout(killTimer);
  // Background children may still hold the group: keep tracking it so destroy() can end them.
  if (pid !== undefined && !groupAlive(pid)) context.track(pid, false);

  return {
    exitCode: code,
    signal,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutBytes: stdout.total,
    stderrBytes: stderr.total,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

/** Sends `signal` to the process group `pgid`; a group already gone (ESRCH) is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** `true` while any process of group `pgid` exists. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function resolveCwd(workdir: string, cwd: string): string {
  return cwd.startsWith('/') ? cwd : `${workdir}/${cwd}`;
}

async function assertDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `working directory ${path} does not exist in the sandbox; create it first or pass another cwd`,
      details: { cwd: path },
    });
  }
}

/** Waits until both pipes closed or `graceMs` passed, then lets go of them. */
async function drain(out: Readable, err: Readable, graceMs: number): Promise<void> {
  const closed = (stream: Readable) =>
    stream.closed ? Promise.resolve() : new Promise<void>((resolve) => stream.once('close', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([closed(out), closed(err)]),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  if (timer) clearTimeout(timer);
  out.destroy();
  err.destroy();
}
