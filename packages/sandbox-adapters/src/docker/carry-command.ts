/**
 * Runs one command request to its end over a channel (when one is free) or a plain exec:
 * uploads stdin as a file, enforces `timeoutMs` / `signal` by killing the command's process group
 * INSIDE the container through another exec (SIGTERM, then SIGKILL after a grace), and bounds the
 * whole run so a stream that never closes cannot hang the caller.
 *
 * Every command carries `SANDKIT_EXEC_ID=<id>` in its environment (exported after the caller's
 * `env`, so it wins). It survives `setsid` and `cd /`, so a kill also reaches what the command
 * detached into another session (case R14): each signal goes to the group and to every process
 * whose `/proc/<pid>/environ` holds the id, and once a stopped command has ended its marked
 * processes get a last SIGKILL (a detached daemon may have trapped SIGTERM). A process that
 * clears its own environment (`env -i`) and leaves the group is only ended by `destroy()`.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { CommandEnd, CommandRequest, CommandRun, CommandSinks } from '../capture/command-run.js';
import { putFile } from './transport/container-files.js';
import type { DockerSandboxState } from './docker-sandbox-state.js';
import { runEngineCommand } from './transport/engine-exec.js';
import { startPlainRun } from './plain-command-run.js';
import { isCarrierLost } from './carrier-lost.js';

/** How a carried command ended. */
export interface CarriedOutcome {
  /** `undefined` when the run had to be abandoned after a kill (no end frame within the bound). */
  end: CommandEnd | undefined;
  /** The streams' sizes as the wrapper measured them (`undefined` without its `S` frame). */
  sizes: { stdout: number; stderr: number } | undefined;
  timedOut: boolean;
  aborted: boolean;
}

/** Limits of one run. */
export interface CarryLimits {
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
}

/** After the SIGKILL, ms to wait for the end frames before giving up on the stream. */
const afterKillBoundMs = 5000;

/** Runs `request` (stdin from `stdin` when given) and reports how it ended. */
export async function carryCommand(
  state: DockerSandboxState,
  request: Omit<CommandRequest, 'stdinPath'>,
  stdin: Uint8Array | undefined,
  sinks: CommandSinks,
  limits: CarryLimits,
): Promise<CarriedOutcome> {
  const channel = state.pool ? await state.pool.acquire() : undefined;
  const execId = randomBytes(9).toString('hex');
  const tagged = { ...request, env: [...request.env, `${execMarker}=${execId}`] };
  let stdinPath: string | undefined;
  if (stdin !== undefined) {
    stdinPath = channel?.stdinPath ?? `/tmp/.sandkit-in-${randomBytes(12).toString('hex')}`;
    try {
      const owner = await state.identity();
      await putFile(state, posix.dirname(stdinPath), posix.basename(stdinPath), stdin, {
        mode: 0o600,
        ...owner,
      });
    } catch (error) {
      if (channel) channel.busy = false;
      throw error;
    }
  }
  const run: CommandRun = channel
    ? channel.run({ ...tagged, stdinPath }, sinks)
    : startPlainRun(state, { ...tagged, stdinPath }, sinks);

  let timedOut = false;
  let aborted = false;
  const timers: NodeJS.Timeout[] = [];
  const bound = new Error('run abandoned after kill');
  let stopping = false;
  let finished = false; // after the end, a pgid may be reused by the next command: never signal it
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void run.pgid.then((pgid) => {
      if (pgid === undefined || finished) return;
      void killGroup(state, pgid, 'TERM', execId);
      timers.push(
        setTimeout(() => !finished && void killGroup(state, pgid, 'KILL', execId), state.options.killGraceMs),
      );
    });
    timers.push(setTimeout(() => run.cancel(bound), state.options.killGraceMs + afterKillBoundMs));
  };
  if (limits.timeoutMs !== undefined) {
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, limits.timeoutMs),
    );
  }
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  if (limits.signal?.aborted) onAbort();
  else limits.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return { end: await run.done, sizes: run.sizes(), timedOut, aborted };
  } catch (error) {
    if (error === bound) return { end: undefined, sizes: run.sizes(), timedOut, aborted };
    const pgid = isCarrierLost(error) && !finished ? await run.pgid : undefined;
    if (pgid === undefined || state.destroyed) throw error;
    // The carrier died under a started command (its wrapper was killed, as a vendor deadline
    // would): end the whole group now and report the run as timed out, never as a result.
    finished = true;
    await endGroup(state, pgid, execId);
    return { end: undefined, sizes: undefined, timedOut: true, aborted };
  } finally {
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
    // The id is this command's alone, so unlike a pgid it is never reused: safe after the end.
    if (stopping) await killGroup(state, undefined, 'KILL', execId);
  }
}

/**
 * Ends process group `pgid` inside the container: SIGTERM, up to the kill grace for it to go,
 * then SIGKILL, in one exec run as root.
 * @throws SandboxError `sandbox_gone` / `sandbox_unavailable` when the container cannot be reached
 */
async function endGroup(state: DockerSandboxState, pgid: number, execId: string): Promise<void> {
  const ticks = Math.ceil(state.options.killGraceMs / 100);
  const marked = markedScript(execId);
  await runEngineCommand(
    state.docker,
    state.container,
    [
      '/bin/sh',
      '-c',
      `${marked} kill -TERM -${pgid} 2>/dev/null; for p in $(sk_marked); do kill -TERM $p 2>/dev/null; done; i=0; while [ $i -lt ${ticks} ] && kill -0 -${pgid} 2>/dev/null; do sleep 0.1; i=$((i + 1)); done; kill -KILL -${pgid} 2>/dev/null; for p in $(sk_marked); do kill -KILL $p 2>/dev/null; done; true`,
    ],
    { user: '0', timeoutMs: 30_000 },
  );
}

/** The variable that marks every process of one command (see the module doc). */
const execMarker = 'SANDKIT_EXEC_ID';

/** Defines `sk_marked`: the pids whose environment holds `SANDKIT_EXEC_ID=<execId>`. */
function markedScript(execId: string): string {
  return `sk_marked() { grep -l -a -F -e '${execMarker}=${execId}' /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,;s,/environ$,,'; };`;
}

/**
 * Sends `signal` to process group `pgid` (when given) and to every process marked with `execId`
 * inside the container, through its own exec run as root (so a command that changed user is still
 * reached). A group already gone is fine; a failed kill exec (container gone) is ignored because
 * the run then ends with its stream.
 */
export async function killGroup(
  state: DockerSandboxState,
  pgid: number | undefined,
  signal: 'TERM' | 'KILL',
  execId?: string,
): Promise<void> {
  if (state.destroyed) return;
  const group = pgid === undefined ? '' : `kill -${signal} -${pgid} 2>/dev/null;`;
  const marked =
    execId === undefined
      ? ''
      : `${markedScript(execId)} for p in $(sk_marked); do kill -${signal} $p 2>/dev/null; done;`;
  await runEngineCommand(state.docker, state.container, ['/bin/sh', '-c', `${group} ${marked} true`], {
    user: '0',
    timeoutMs: 10_000,
  }).catch(() => undefined);
}
