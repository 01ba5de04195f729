/**
 * Output capture for the local adapter: the command's stdout and stderr are files in the sandbox's
 * log directory (the child writes to them directly; no pipe reaches this process), and only the
 * head and tail of each are read back, or every byte as it is written when a streaming callback
 * asks for it. The same contract as the in-sandbox wrapper of the other adapters
 * (capture/capture-script.ts), done with node:fs because the sandbox is this machine.
 *
 * Opening, sizing, closing and removing the files are synchronous calls (microseconds each on a
 * local file system, cheaper than a thread-pool round trip per call on the exec's critical path);
 * reads are bounded by the cap, and followed output is read asynchronously.
 * @module
 */
import { closeSync, fstatSync, openSync, read, readSync, unlinkSync } from 'node:fs';
import { promisify } from 'node:util';
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import type { OutputLogRetention } from '../capture/output-log-retention.js';
import { type CapturedOutputFields, capturedOutput, OutputWindow } from '../capture/output-window.js';

/** How often new log bytes are looked for while a command with a streaming callback runs, in ms. */
export const followIntervalMs = 25;

/** Bytes read per `read()` call. */
const readChunkBytes = 256 * 1024;

const readAsync = promisify(read);

/** One stream's log file, its window, and how far it was read (when followed). */
class CapturedLog {
  readonly window: OutputWindow;
  private sent = 0;

  constructor(
    readonly path: string,
    readonly fd: number,
    cap: number,
    private readonly callback: ((chunk: Uint8Array) => void) | undefined,
  ) {
    this.window = new OutputWindow(cap);
  }

  /** Reads every byte written since the last call and passes it on. */
  async follow(): Promise<void> {
    for (;;) {
      const buffer = Buffer.allocUnsafe(readChunkBytes);
      const { bytesRead } = await readAsync(this.fd, buffer, 0, buffer.length, this.sent);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      this.sent += bytesRead;
      this.window.push(chunk);
      this.callback?.(chunk);
    }
  }

  /** Reads the head and the tail slices only; returns the file's length (the stream's total). */
  slices(cap: number): number {
    const size = fstatSync(this.fd).size;
    const head = Math.min(cap, size);
    const tail = Math.min(cap, size - head);
    this.readRange(0, head);
    this.readRange(size - tail, tail);
    return size;
  }

  private readRange(position: number, length: number): void {
    let done = 0;
    while (done < length) {
      const buffer = Buffer.allocUnsafe(Math.min(readChunkBytes, length - done));
      const bytesRead = readSync(this.fd, buffer, 0, buffer.length, position + done);
      if (bytesRead === 0) return;
      this.window.push(buffer.subarray(0, bytesRead));
      done += bytesRead;
    }
  }
}

/** The log files of one command run. */
export class LocalCapture {
  private following: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private followError: { error: unknown } | undefined;
  private closed = false;

  private constructor(
    private readonly log: string,
    private readonly out: CapturedLog,
    private readonly err: CapturedLog,
    private readonly cap: number,
    private readonly live: boolean,
    private readonly logs: OutputLogRetention,
  ) {}

  /**
   * Creates `<log>.out` and `<log>.err` in the retention's directory (deleting an old kept log
   * when the retention says so).
   * @throws the file system's error when the log directory cannot be written
   */
  static open(
    logs: OutputLogRetention,
    cap: number,
    onStdout: ((chunk: Uint8Array) => void) | undefined,
    onStderr: ((chunk: Uint8Array) => void) | undefined,
  ): LocalCapture {
    const { log, drop } = logs.next();
    if (drop !== undefined) for (const path of [`${drop}.out`, `${drop}.err`]) unlinkQuietly(path);
    const outFd = openSync(`${log}.out`, 'w+', 0o600);
    let errFd: number;
    try {
      errFd = openSync(`${log}.err`, 'w+', 0o600);
    } catch (error) {
      closeSync(outFd);
      unlinkQuietly(`${log}.out`);
      throw error;
    }
    const live = onStdout !== undefined || onStderr !== undefined;
    return new LocalCapture(
      log,
      new CapturedLog(`${log}.out`, outFd, cap, onStdout),
      new CapturedLog(`${log}.err`, errFd, cap, onStderr),
      cap,
      live,
      logs,
    );
  }

  /** The log files' paths (a process in another mount namespace with the same view opens them by name). */
  get paths(): { stdout: string; stderr: string } {
    return { stdout: this.out.path, stderr: this.err.path };
  }

  /** File descriptors for the child's stdout and stderr. */
  get fds(): { stdout: number; stderr: number } {
    return { stdout: this.out.fd, stderr: this.err.fd };
  }

  /**
   * Starts following the files when a callback wants live output. A callback that throws stops
   * the following and calls `onError` once (the caller kills the command).
   */
  start(onError: (error: unknown) => void): void {
    if (!this.live) return;
    const tick = (): void => {
      this.following = this.following
        .then(() => this.followOnce())
        .catch((error: unknown) => {
          if (this.followError !== undefined) return;
          this.followError = { error };
          this.stop();
          onError(error);
        });
    };
    this.timer = setInterval(tick, followIntervalMs);
  }

  /**
   * After the command's shell exited: the last live bytes, or the head and tail slices; removes
   * the files when neither stream passed the cap, else keeps them (recorded in the retention).
   * @throws the first error a streaming callback threw
   */
  async finish(): Promise<CapturedOutputFields> {
    this.stop();
    await this.following;
    let totals: { stdout: number; stderr: number } | undefined;
    try {
      if (this.followError !== undefined) throw this.followError.error;
      if (this.live) await this.followOnce();
      else totals = { stdout: this.out.slices(this.cap), stderr: this.err.slices(this.cap) };
    } catch (error) {
      this.close(false);
      throw error;
    }
    const fields = capturedOutput(this.out.window, this.err.window, totals, {
      stdout: this.out.path,
      stderr: this.err.path,
    });
    this.close(fields.stdoutTruncated || fields.stderrTruncated);
    return fields;
  }

  /** Closes the files (once); deletes them unless `keep`. */
  close(keep: boolean): void {
    this.stop();
    if (this.closed) return;
    this.closed = true;
    closeSync(this.out.fd);
    closeSync(this.err.fd);
    if (keep) this.logs.keptLog(this.log);
    else for (const path of [this.out.path, this.err.path]) unlinkQuietly(path);
  }

  private async followOnce(): Promise<void> {
    await this.out.follow();
    await this.err.follow();
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Removes a file; one already gone (or a log directory removed with its sandbox) is fine. */
function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Opens one command's capture for an exec of the local adapter, plain or under bubblewrap: the
 * cap and the streaming callbacks come from the normalised exec options.
 * @throws SandboxError `cannot_start_command` when the log directory cannot be written (the
 *   message names it: it must stay writable).
 */
export function openExecCapture(
  logs: OutputLogRetention,
  options: {
    maxOutputBytes: number;
    onStdout?: ((chunk: Uint8Array) => void) | undefined;
    onStderr?: ((chunk: Uint8Array) => void) | undefined;
  },
): LocalCapture {
  try {
    return LocalCapture.open(logs, options.maxOutputBytes, options.onStdout, options.onStderr);
  } catch (error) {
    throw new SandboxError({
      code: SandkitErrorCode.cannotStartCommand,
      message: `cannot create the output log in ${logs.dir}: ${(error as Error).message}; the sandbox's log directory must stay writable`,
      cause: error,
      details: { logDir: logs.dir },
    });
  }
}
