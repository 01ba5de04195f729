/**
 * What one framed command run looks like from the host, whichever way it is carried (a plain
 * engine exec, the Docker adapter's long-lived channel, or another vendor's command API): the
 * request, the `sk_run` arguments it becomes, and the tracker that reads the frames back.
 * @module
 */
import { formatCommand, quoteShellArgument } from '@sandkit/core';
import { CommandFrameParser } from './command-frame-parser.js';

/** A command to run inside the sandbox (all paths absolute). */
export interface CommandRequest {
  cwd: string;
  /** `/bin/sh` or `/bin/bash`. */
  shell: string;
  command: string;
  /** A file in the sandbox that becomes stdin, or `undefined` for /dev/null. */
  stdinPath: string | undefined;
  /** `NAME=value` pairs exported for this command only. */
  env: string[];
  /** Absolute path base of the output log: the wrapper writes `<log>.out` and `<log>.err`. */
  log: string;
  /** Bytes of head and of tail sent per stream in mode `slices`; also the keep-the-log threshold. */
  cap: number;
  /** How output comes back: head and tail, every byte followed, or uncaptured (own scripts). */
  mode: CaptureMode;
  /** A log base of an earlier run to delete before this one starts, or `undefined`. */
  drop: string | undefined;
}

/**
 * How the wrapper returns output (see capture-script.ts): `slices` = head and tail after the
 * command, `follow` = every byte while it runs (streaming callbacks), `direct` = no capture at
 * all, for sandkit's own short scripts.
 */
export type CaptureMode = 'slices' | 'follow' | 'direct';

const captureModes: Record<CaptureMode, string> = { slices: '0', follow: '1', direct: '2' };

/** How a command ended, as the in-sandbox wrapper saw it. */
export type CommandEnd =
  | { kind: 'exit'; code: number; tainted: boolean }
  | { kind: 'signal'; signal: number; tainted: boolean }
  | { kind: 'cwd-missing' }
  | { kind: 'not-started'; status: number; message: string };

/** Where a run's bytes go. */
export interface CommandSinks {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
}

/** A command in flight. */
export interface CommandRun {
  /** Resolves with the command's process-group id once it has started (`undefined` if it never did). */
  readonly pgid: Promise<number | undefined>;
  /** Resolves when both streams carried their end frame. */
  readonly done: Promise<CommandEnd>;
  /** The streams' sizes from the wrapper's `S` frame, once it arrived. */
  sizes(): { stdout: number; stderr: number } | undefined;
  /** Stops waiting: `done` rejects with `reason`, the carrier is released or torn down. */
  cancel(reason: Error): void;
}

/** The `sk_run` arguments of a request (see capture-script.ts); the command itself goes in `SK_C`. */
export function runArguments(nonce: string, request: CommandRequest, pidFile: string): string[] {
  return [
    nonce,
    request.cwd,
    request.shell,
    request.stdinPath ?? '',
    pidFile,
    request.log,
    String(request.cap),
    captureModes[request.mode],
    request.drop ?? '',
    ...request.env,
  ];
}

/** `true` when the wrapper kept the log files of a run with these stream sizes (see capture-script.ts). */
export function logKept(cap: number, sizes: { stdout: number; stderr: number }): boolean {
  return sizes.stdout > cap || sizes.stderr > cap;
}

/** A request block for the channel: `sk_c='command'`, `sk_run 'a' 'b' …`, then the nonce line. */
export function channelRequest(nonce: string, request: CommandRequest, pidFile: string): string {
  const args = formatCommand(runArguments(nonce, request, pidFile));
  return `sk_c=${quoteShellArgument(request.command)}\nsk_run ${args}\n${nonce}\n`;
}

/** Parses an `E` frame's text: `<kind> <status> <tainted> <message>`. */
export function parseEnd(text: string): CommandEnd {
  const [kind = '', status = '', tainted = '', ...rest] = text.split(' ');
  const code = Number(status);
  if (kind === 'd') return { kind: 'cwd-missing' };
  if (kind === 'n') return { kind: 'not-started', status: code, message: rest.join(' ') };
  if (kind === 's') return { kind: 'signal', signal: code & 0x7f, tainted: tainted === '1' };
  return { kind: 'exit', code, tainted: tainted === '1' };
}

/**
 * Tracks the two streams of one run: passes data to `sinks`, resolves `pgid` at the `P` frame and
 * reports the end once both streams carried their `E` frame.
 */
export class RunTracker {
  readonly stdout: CommandFrameParser;
  readonly stderr: CommandFrameParser;
  end: CommandEnd | undefined;
  pid: number | undefined;
  /** The streams' sizes from the `S` frame (each log file's length once the command ended). */
  sizes: { stdout: number; stderr: number } | undefined;
  private resolvePgid!: (pgid: number | undefined) => void;
  readonly pgid = new Promise<number | undefined>((resolve) => {
    this.resolvePgid = resolve;
  });

  constructor(
    nonce: Buffer,
    sinks: CommandSinks,
    private readonly onComplete: (end: CommandEnd) => void,
  ) {
    this.stdout = new CommandFrameParser(nonce, {
      data: (chunk) => sinks.stdout(chunk),
      frame: (type, text) => {
        if (type === 'P') {
          this.pid = Number(text);
          this.resolvePgid(this.pid);
        } else if (type === 'S') {
          const [out = '', err = ''] = text.split(' ');
          this.sizes = { stdout: Number(out), stderr: Number(err) };
        } else if (type === 'E') {
          this.end = parseEnd(text);
          this.check();
        }
      },
    });
    this.stderr = new CommandFrameParser(nonce, {
      data: (chunk) => sinks.stderr(chunk),
      frame: (type) => {
        if (type === 'E') this.check();
      },
    });
  }

  /** Marks the run as over without frames (stream ended): `pgid` resolves to what is known. */
  abandon(): void {
    this.stdout.flush();
    this.stderr.flush();
    this.resolvePgid(this.pid);
  }

  private check(): void {
    if (this.end !== undefined && this.stdout.ended && this.stderr.ended) {
      this.resolvePgid(this.pid);
      this.onComplete(this.end);
    }
  }
}
