import { type ExecResult, utf8Boundary } from '@sandkit/core';

/**
 * Keeps at most `maxBytes` of a stream while it flows, counting every byte, so a command that
 * prints gigabytes costs constant host memory. The kept prefix is cut on a UTF-8 boundary.
 */
export class OutputCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen, kept or not. */
  total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** `true` once more bytes arrived than the cap keeps. */
  get truncated(): boolean {
    return this.total > this.kept;
  }

  /** The kept bytes as text; when cut, the cut backs up to the last whole character. */
  text(): string {
    const bytes = Buffer.concat(this.chunks, this.kept);
    if (!this.truncated) return bytes.toString('utf8');
    return bytes.subarray(0, utf8Boundary(bytes, bytes.length)).toString('utf8');
  }
}

/** The output fields of an `ExecResult`, from the stdout and stderr collectors of one command. */
export function collectedOutput(
  stdout: OutputCollector,
  stderr: OutputCollector,
): Pick<
  ExecResult,
  'stdout' | 'stderr' | 'stdoutBytes' | 'stderrBytes' | 'stdoutTruncated' | 'stderrTruncated'
> {
  return {
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutBytes: stdout.total,
    stderrBytes: stderr.total,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
  };
}
