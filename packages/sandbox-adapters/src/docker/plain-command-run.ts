/**
 * Carries one command over its own engine exec (`sh -c <wrapper>`): the fallback when no channel
 * is free, and the only carrier with `channel: false`. The exit code comes from exec inspect,
 * polled until the engine recorded it (C13), and is checked against the wrapper's end frame.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type CommandEnd,
  type CommandRequest,
  type CommandRun,
  type CommandSinks,
  RunTracker,
  runArguments,
} from '../capture/command-run.js';
import { plainExecScript } from '../capture/capture-script.js';
import { cannotStartError, demultiplex, readExitCode, startEngineExec } from './transport/engine-exec.js';
import type { EngineContainer } from './transport/engine-container.js';
import { carrierLost } from './carrier-lost.js';

/**
 * How long a plain run waits, after the wrapper's end frames, for the engine to end the exec's
 * stream (the wrapper exiting) before cutting it: nothing of the command holds the stream (its
 * output goes to the log files), so this bounds only an engine that is slow to close it.
 */
const plainEndGraceMs = 200;

/** A fresh frame nonce: a control byte, then random hex (unforgeable by accident). */
export function newNonce(): string {
  return `\u0001sk${randomBytes(12).toString('hex')}`;
}

/** Starts `request` as its own engine exec. */
export function startPlainRun(
  context: EngineContainer,
  request: CommandRequest,
  sinks: CommandSinks,
): CommandRun {
  const nonce = newNonce();
  const argv = ['/bin/sh', '-c', plainExecScript, 'sandkit', ...runArguments(nonce, request, '')];
  let stream: Readable | undefined;
  let cancelled: Error | undefined;
  let stderrHead = '';
  let grace: NodeJS.Timeout | undefined;
  let settle!: { resolve: (end: CommandEnd) => void; reject: (error: Error) => void };
  const done = new Promise<CommandEnd>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const tracker = new RunTracker(
    Buffer.from(nonce),
    {
      stdout: sinks.stdout,
      stderr: (chunk) => {
        if (stderrHead.length < 4096) stderrHead += chunk.toString('utf8');
        sinks.stderr(chunk);
      },
    },
    () => {
      // Both end frames seen: the wrapper exits next, and the engine ends the stream once it has.
      // Reading on until then (instead of cutting the stream here) lets the first exec inspect
      // find the exit status; cutting it made the run sleep through 1–2 polls (20 ms each).
      // Whatever still holds the stream after plainEndGraceMs is cut off.
      grace = setTimeout(() => stream?.destroy(), plainEndGraceMs);
    },
  );

  const run = async (): Promise<CommandEnd> => {
    const started = await startEngineExec(context.container, { argv, env: [`SK_C=${request.command}`] });
    stream = started.stream;
    if (cancelled) stream.destroy();
    await new Promise<void>((resolve) => {
      demultiplex(
        context.docker,
        started.stream,
        (chunk) => tracker.stdout.push(chunk),
        (chunk) => tracker.stderr.push(chunk),
      );
      started.stream.once('close', resolve);
      started.stream.once('end', resolve);
      started.stream.once('error', () => resolve());
    });
    clearTimeout(grace);
    tracker.abandon();
    if (cancelled) throw cancelled;
    const what = `\`${request.command.slice(0, 60)}\``;
    const end = tracker.end;
    if (end === undefined && tracker.pid !== undefined) {
      // The command started but its wrapper is gone (killed from outside): the run's end is unknown.
      throw carrierLost('the exec stream ended before the command did');
    }
    if (end === undefined) {
      // No end frame: the wrapper never ran; the engine's status is all there is.
      const code = await readExitCode(started.exec, what);
      const startError = cannotStartError(code, stderrHead, '/bin/sh');
      if (startError) throw startError;
      return { kind: 'exit', code, tainted: false };
    }
    if (end.kind !== 'exit') return end;
    const code = await readExitCode(started.exec, what).catch(() => end.code); // the frame's status is the shell's own
    return { ...end, code };
  };
  run().then(settle.resolve, settle.reject);
  return {
    pgid: tracker.pgid,
    done,
    sizes: () => tracker.sizes,
    cancel(reason) {
      cancelled = reason;
      stream?.destroy();
      tracker.abandon();
      settle.reject(reason);
    },
  };
}
