/**
 * The result record the wrapper prints after a command (see `e2b-exec-script.ts`): finding it in
 * the wrapper's stdout, keeping it out of streamed output, and turning it into result fields.
 * @module
 */
import { utf8Boundary } from '@sandkit/core';
import type { CapturedOutputFields } from '../capture/output-window.js';

/** How the command ended, with its exact output heads. */
export interface ExecRecord {
  /** `nolog`: the capture directory is not writable, the command did not run. */
  kind: 'exit' | 'signal' | 'cwd' | 'nolog';
  /** Exit status, or signal number for `signal`. */
  code: number;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutHead: Buffer;
  stderrHead: Buffer;
  /** The end of a cut stream (empty when not cut). */
  stdoutTail: Buffer;
  stderrTail: Buffer;
  /**
   * Present when the slices did not come inline but were left in the call's slices file (see
   * `e2b-exec-script.ts`): the byte lengths of stdout's head, stderr's head, stdout's tail and
   * stderr's tail, back to back in that order. The four buffers above are then empty until
   * `fetchRecordSlices` fills them.
   */
  sliceFile?: SliceLengths;
}

/** Byte lengths of the four slices in a slices file: stdout head, stderr head, stdout tail, stderr tail. */
export type SliceLengths = readonly [number, number, number, number];

/**
 * Reads the wrapper's stdout line by line: `o<base64>` / `e<base64>` lines are streamed output
 * (decoded to the exact bytes and passed on at once), and the record starts at the token line.
 */
export class RecordSplitter {
  private partial = '';
  private record: string | undefined;

  constructor(
    private readonly token: string,
    private readonly sinks: {
      stdout?: (bytes: Uint8Array) => void;
      stderr?: (bytes: Uint8Array) => void;
    } = {},
  ) {}

  push(text: string): void {
    if (this.record !== undefined) {
      this.record += text;
      return;
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const [index, line] of lines.entries()) {
      if (line.startsWith(this.token)) {
        this.record = [...lines.slice(index), this.partial].join('\n');
        this.partial = '';
        return;
      }
      if (line.startsWith('o')) this.sinks.stdout?.(Buffer.from(line.slice(1), 'base64'));
      else if (line.startsWith('e')) this.sinks.stderr?.(Buffer.from(line.slice(1), 'base64'));
    }
  }

  /** The record text (from the token on), or `undefined` when none arrived. */
  recordText(): string | undefined {
    if (this.record === undefined && this.partial.startsWith(this.token)) return this.partial;
    return this.record;
  }
}

/**
 * Parses a record's text: `<token> kind code outBytes errBytes[ file l1 l2 l3 l4]`, then four
 * base64 lines (empty in the `file` form).
 */
export function parseRecord(text: string | undefined): ExecRecord | undefined {
  if (text === undefined) return undefined;
  const [head = '', out = '', err = '', outTail = '', errTail = ''] = text.split('\n');
  const [, kind, code, stdoutBytes, stderrBytes, where, ...lengths] = head.trim().split(/\s+/);
  if (kind !== 'exit' && kind !== 'signal' && kind !== 'cwd' && kind !== 'nolog') return undefined;
  let sliceFile: SliceLengths | undefined;
  if (where === 'file') {
    const sizes = lengths.map(Number);
    if (sizes.length !== 4 || !sizes.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
    sliceFile = sizes as unknown as SliceLengths;
  }
  return {
    ...(sliceFile === undefined ? {} : { sliceFile }),
    kind,
    code: Number(code),
    stdoutBytes: Number(stdoutBytes),
    stderrBytes: Number(stderrBytes),
    stdoutHead: Buffer.from(out.trim(), 'base64'),
    stderrHead: Buffer.from(err.trim(), 'base64'),
    stdoutTail: Buffer.from(outTail.trim(), 'base64'),
    stderrTail: Buffer.from(errTail.trim(), 'base64'),
  };
}

/** The output fields of an `ExecResult` from a record; a cut head backs up to a whole character. */
export function recordOutput(record: ExecRecord, logBase: string): CapturedOutputFields {
  const text = (head: Buffer, total: number): string =>
    (total > head.length ? head.subarray(0, utf8Boundary(head, head.length)) : head).toString('utf8');
  const cut = record.stdoutBytes > record.stdoutHead.length || record.stderrBytes > record.stderrHead.length;
  return {
    ...(record.stdoutBytes > record.stdoutHead.length ? { stdoutTail: tailText(record.stdoutTail) } : {}),
    ...(record.stderrBytes > record.stderrHead.length ? { stderrTail: tailText(record.stderrTail) } : {}),
    ...(cut ? { outputLog: { stdout: `${logBase}.out`, stderr: `${logBase}.err` } } : {}),
    stdout: text(record.stdoutHead, record.stdoutBytes),
    stderr: text(record.stderrHead, record.stderrBytes),
    stdoutBytes: record.stdoutBytes,
    stderrBytes: record.stderrBytes,
    stdoutTruncated: record.stdoutBytes > record.stdoutHead.length,
    stderrTruncated: record.stderrBytes > record.stderrHead.length,
  };
}

/** Decodes a tail from its first whole character (skips up to 3 continuation bytes). */
function tailText(bytes: Buffer): string {
  let start = 0;
  while (start < 3 && start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}
