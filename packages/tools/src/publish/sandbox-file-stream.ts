/**
 * A file in the sandbox as a Node stream that reads it one range at a time, only when the consumer
 * asks for more, so a 50 MiB file crosses to the host a few MiB at a time.
 *
 * The contract has no ranged read (`readFile` returns the whole file), so each range is one
 * `dd if=FILE bs=65536 skip=K count=N` through `exec`, its raw stdout taken from `onStdout` (the
 * conformance suite checks that every adapter passes binary output there unchanged, beyond the
 * cap). Exit-code contract: dd exits 0 after copying, non-zero with its reason on stderr (file gone,
 * unreadable). A range shorter than asked before the end means the file shrank: the stream fails
 * rather than end short, and a publisher then aborts its upload.
 * @module
 */
import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { formatCommand, type SandboxClient, SandkitErrorCode, ToolError } from '@sandkit/core';

/** dd's block size: ranges start and end on multiples of it (the last one ends at the file's end). */
export const ddBlockBytes = 65_536;

/** Options of {@link openSandboxFileStream}. */
export interface SandboxFileStreamOptions {
  /** Exact size in bytes the file had when it was checked; the stream yields exactly this many. */
  size: number;
  /** Bytes per `exec`, a multiple of {@link ddBlockBytes}. */
  rangeBytes: number;
  /** Aborting kills the running `dd` and fails the stream. */
  signal?: AbortSignal;
  /** Run after the last byte was read and before the stream ends; throw to fail the stream. */
  beforeEnd?: () => Promise<void>;
}

/** The stream and the digest of what it has yielded so far. */
export interface SandboxFileStream {
  stream: Readable;
  /** sha256 of every byte yielded; read it once the stream ended. */
  readonly hash: Hash;
  /** Bytes yielded so far. */
  readonly bytesRead: number;
}

/**
 * Opens `absolute` (a path already resolved inside the root) as a byte stream of `size` bytes.
 * The stream fails with ToolError `refused` when dd fails or the file changed size, or with the
 * error `beforeEnd` threw.
 */
export function openSandboxFileStream(
  client: SandboxClient,
  absolute: string,
  options: SandboxFileStreamOptions,
): SandboxFileStream {
  const hash = createHash('sha256');
  let bytesRead = 0;
  async function* ranges(): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < options.size; offset += options.rangeBytes) {
      const length = Math.min(options.rangeBytes, options.size - offset);
      const chunks = await readRange(client, absolute, offset, length, options.signal);
      const got = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      if (got !== length) throw changed(absolute, offset + got, options.size);
      for (const chunk of chunks) {
        hash.update(chunk);
        bytesRead += chunk.length;
        yield chunk;
      }
    }
    await options.beforeEnd?.();
  }
  // highWaterMark 1 (object mode): at most one chunk waits; the next range is read on demand.
  return {
    stream: Readable.from(ranges(), { highWaterMark: 1 }),
    hash,
    get bytesRead() {
      return bytesRead;
    },
  };
}

/**
 * The bytes `[offset, offset + length)` of the file, as the chunks `onStdout` delivered (never
 * concatenated: no second copy). `offset` is a multiple of {@link ddBlockBytes}.
 */
export async function readRange(
  client: SandboxClient,
  absolute: string,
  offset: number,
  length: number,
  signal?: AbortSignal,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const argv = [
    'dd',
    `if=${absolute}`,
    `bs=${ddBlockBytes}`,
    `skip=${offset / ddBlockBytes}`,
    `count=${Math.ceil(length / ddBlockBytes)}`,
  ];
  const result = await client.exec(formatCommand(argv), {
    // the bytes come through onStdout; the kept text is only for an error message
    maxOutputBytes: 1024,
    onStdout: (chunk) => {
      chunks.push(chunk);
    },
    ...(signal ? { signal } : {}),
  });
  if (result.aborted) {
    throw new ToolError({
      code: SandkitErrorCode.aborted,
      message: 'publish was aborted while reading the file',
    });
  }
  if (result.exitCode !== 0) {
    throw new ToolError({
      code: SandkitErrorCode.refused,
      message: `reading ${absolute} failed (dd exit ${result.exitCode}): ${lastLine(result.stderr)}`,
      details: { path: absolute, exitCode: result.exitCode },
    });
  }
  return chunks;
}

function changed(absolute: string, got: number, size: number): ToolError {
  return new ToolError({
    code: SandkitErrorCode.refused,
    message: `${absolute} changed while it was being published (it had ${size} bytes, only ${got} could be read); nothing was published; publish it again once it is written`,
    details: { path: absolute, size, read: got },
  });
}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => !/records (in|out)$/.test(line))
      .at(-1) ?? 'no reason given'
  );
}
