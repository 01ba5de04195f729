/**
 * A long-lived shell inside the container, started with one engine exec (stdin attached), that
 * runs framed requests one at a time: a command costs a few ms instead of a fresh exec's ~135 ms.
 * The shell also defines `sk_write` (finish-write-script.ts), so a large writeFile's request
 * carries only its arguments.
 *
 * Each request is `sk_run …` (see command-script.ts) followed by a line holding the channel's
 * nonce. The command runs under `setsid` in its own process group, writes straight to the
 * channel's stdout/stderr, and is followed by end frames on both. A command that leaves processes
 * of its group alive (they may hold the streams and write later) taints the channel, which is then
 * closed and replaced; so does any byte that arrives while no command runs.
 * @module
 */
import type { Duplex } from 'node:stream';
import {
  type CommandEnd,
  type CommandRequest,
  type CommandRun,
  type CommandSinks,
  channelRequest,
  RunTracker,
} from '../capture/command-run.js';
import { channelScript } from '../capture/capture-script.js';
import { demultiplex, startEngineExec } from './transport/engine-exec.js';
import { finishWriteFunction } from './finish-write-script.js';
import { carrierLost } from './carrier-lost.js';
import { newNonce } from './plain-command-run.js';
import type { EngineContainer } from './transport/engine-container.js';

/** One channel. Callers reserve it (`busy`) before {@link ExecChannel.run}. */
export class ExecChannel {
  busy = false;
  alive = true;
  /** File the host uploads a command's stdin to before running it on this channel. */
  readonly stdinPath: string;
  private readonly pidFile: string;
  private current: { tracker: RunTracker; reject: (error: Error) => void } | undefined;

  private constructor(
    private readonly nonce: string,
    private readonly stream: Duplex,
  ) {
    const base = `/tmp/.sandkit-${nonce.slice(3)}`;
    this.pidFile = `${base}.pid`;
    this.stdinPath = `${base}.in`;
  }

  /**
   * Starts the shell.
   * @throws SandboxError `sandbox_unavailable` / `sandbox_gone` when the exec cannot be started.
   */
  static async open(context: EngineContainer): Promise<ExecChannel> {
    const nonce = newNonce();
    const { stream } = await startEngineExec(context.container, {
      argv: ['/bin/sh', '-c', `${finishWriteFunction}${channelScript}`, 'sandkit-channel', nonce],
      stdin: true,
    });
    const channel = new ExecChannel(nonce, stream as Duplex);
    demultiplex(
      context.docker,
      stream,
      (chunk) => channel.receive('stdout', chunk),
      (chunk) => channel.receive('stderr', chunk),
    );
    const lost = (): void => channel.fail('the command channel to the container closed');
    stream.once('close', lost);
    stream.once('end', lost);
    stream.once('error', lost);
    return channel;
  }

  /**
   * Sends `request`, then `payload` (when given) as raw bytes after it: the request's script must
   * read exactly those bytes from its stdin (`stdinPath` `-`, direct mode), or the shell would
   * take them for the next request. The channel must be reserved (`busy`) and idle.
   */
  run(request: CommandRequest, sinks: CommandSinks, payload?: string): CommandRun {
    const text = channelRequest(this.nonce, request, this.pidFile);
    let settle!: { resolve: (end: CommandEnd) => void; reject: (error: Error) => void };
    const done = new Promise<CommandEnd>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const tracker = new RunTracker(Buffer.from(this.nonce), sinks, (end) => {
      this.current = undefined;
      if ((end.kind === 'exit' || end.kind === 'signal') && end.tainted) this.close();
      this.busy = false;
      settle.resolve(end);
    });
    this.current = { tracker, reject: settle.reject };
    if (this.alive) this.stream.write(payload === undefined ? text : text + payload);
    else this.fail('the command channel is closed');
    return {
      pgid: tracker.pgid,
      done,
      sizes: () => tracker.sizes,
      cancel: (reason) => {
        this.current = undefined;
        this.close(); // the shell is mid-command: its state is unknown, so it is not reused
        tracker.abandon();
        settle.reject(reason);
      },
    };
  }

  /**
   * Writes `text` to the shell's stdin while the current run's script reads it (a direct-mode
   * request with stdin `-` that reads exactly these bytes, as {@link ExecChannel.run}'s payload).
   * Does nothing once the run has ended or the channel is closed.
   */
  send(text: string): void {
    if (this.alive && this.current !== undefined) this.stream.write(text);
  }

  /** Ends the shell (at EOF of its stdin) and stops reading. */
  close(): void {
    if (!this.alive) return;
    this.alive = false;
    if (this.current === undefined && this.stream.writable) {
      // Idle: let the shell clean up and exit; the engine then closes the stream.
      this.stream.end(`rm -f -- '${this.pidFile}' '${this.stdinPath}'; exit 0\n${this.nonce}\n`);
      setTimeout(() => this.stream.destroy(), 2000).unref();
    } else {
      this.stream.destroy();
    }
  }

  private receive(which: 'stdout' | 'stderr', chunk: Buffer): void {
    const current = this.current;
    if (current === undefined) {
      this.fail('unexpected output on the idle command channel');
      return;
    }
    const rest = current.tracker[which].push(chunk);
    if (rest.length > 0) this.fail('output after the end of a command on the channel');
  }

  private fail(reason: string): void {
    const current = this.current;
    this.current = undefined;
    this.close();
    if (current) {
      current.tracker.abandon();
      current.reject(carrierLost(`${reason} while a command was running`));
    }
  }
}
