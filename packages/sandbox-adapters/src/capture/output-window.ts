/**
 * The host side of a captured stream: the first `maxBytes` (the head) and the last `maxBytes`
 * received (the tail window), whatever arrives in between, so host memory stays at most twice the
 * cap per stream however much the command prints.
 * @module
 */
import { type ExecResult, utf8Boundary } from '@sandkit/core';

const decoder = new TextDecoder('utf-8');

/**
 * Keeps the head and a sliding tail of one stream. Fed either every byte of the stream (live
 * following) or only the head and tail slices the in-sandbox wrapper sends (see capture-script.ts):
 * either way the tail is the last bytes received.
 */
export class OutputWindow {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes received so far. */
  received = 0;

  /** @param maxBytes the cap: a non-negative integer number of bytes */
  constructor(private readonly maxBytes: number) {}

  /** Takes the next bytes of the stream. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    this.received += bytes.length;
    const room = this.maxBytes - this.headBytes;
    if (room > 0) {
      const part = bytes.length <= room ? bytes : bytes.subarray(0, room);
      this.head.push(Buffer.from(part)); // a copy: the caller may reuse its buffer
      this.headBytes += part.length;
    }
    if (this.maxBytes === 0) return;
    const keep = bytes.length > this.maxBytes ? bytes.subarray(bytes.length - this.maxBytes) : bytes;
    this.tail.push(Buffer.from(keep));
    this.tailBytes += keep.length;
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0]?.length ?? 0) >= this.maxBytes) {
      this.tailBytes -= this.tail.shift()?.length ?? 0;
    }
  }

  /**
   * The stream's share of an ExecResult.
   * @param totalBytes every byte the command wrote to the stream (the log file's size); defaults
   *   to the bytes received, which is right when every byte was followed live.
   */
  result(totalBytes = this.received): { text: string; bytes: number; truncated: boolean; tail?: string } {
    const head = Buffer.concat(this.head, this.headBytes);
    if (totalBytes <= this.maxBytes)
      return { text: decoder.decode(head), bytes: totalBytes, truncated: false };
    const text = decoder.decode(head.subarray(0, utf8Boundary(head, head.length)));
    const tailLength = Math.min(this.maxBytes, totalBytes - this.maxBytes, this.tailBytes);
    if (tailLength <= 0) return { text, bytes: totalBytes, truncated: true };
    const window = Buffer.concat(this.tail, this.tailBytes);
    let start = window.length - tailLength;
    // Start on a whole character: skip at most 3 continuation bytes of one cut in two.
    for (let step = 0; step < 3 && start < window.length && ((window[start] ?? 0) & 0xc0) === 0x80; step++)
      start++;
    return { text, bytes: totalBytes, truncated: true, tail: decoder.decode(window.subarray(start)) };
  }
}

/** The output fields of an ExecResult from the two windows of one command. */
export type CapturedOutputFields = Pick<
  ExecResult,
  | 'stdout'
  | 'stderr'
  | 'stdoutBytes'
  | 'stderrBytes'
  | 'stdoutTruncated'
  | 'stderrTruncated'
  | 'stdoutTail'
  | 'stderrTail'
  | 'outputLog'
>;

/**
 * Builds the output fields of an ExecResult.
 * @param totals the streams' sizes as the wrapper measured them; absent = the bytes received
 * @param log where the whole streams are kept, when they are (only reported when one was cut)
 */
export function capturedOutput(
  stdout: OutputWindow,
  stderr: OutputWindow,
  totals?: { stdout: number; stderr: number },
  log?: { stdout: string; stderr: string },
): CapturedOutputFields {
  const out = stdout.result(totals?.stdout);
  const err = stderr.result(totals?.stderr);
  return {
    stdout: out.text,
    stderr: err.text,
    stdoutBytes: out.bytes,
    stderrBytes: err.bytes,
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    ...(out.tail === undefined ? {} : { stdoutTail: out.tail }),
    ...(err.tail === undefined ? {} : { stderrTail: err.tail }),
    ...(log !== undefined && (out.truncated || err.truncated) ? { outputLog: log } : {}),
  };
}
