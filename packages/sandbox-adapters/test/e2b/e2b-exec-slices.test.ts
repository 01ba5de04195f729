/**
 * The head and tail of a big output come back raw through `GET /files` (one more request, the
 * slices file removed after), a small one inline in the command's record: through the real adapter
 * and SDK against the envd stand-in. The SDK's `files.read` and `files.remove` are watched (called
 * through, not replaced) to see which way the bytes came.
 */
import { randomBytes } from 'node:crypto';
import { type ExecResult, formatCommand, utf8Boundary } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execDir, inlineSliceBytes, slicesPath } from '../../src/e2b/e2b-exec-script.js';
import { createStandInE2BAdapter, type StandInE2BHandle } from './e2b-stand-in-adapter.js';

const decoder = new TextDecoder();

/** The `stdout` the contract gives for `bytes` under `cap`: the head, backed up to a whole character when cut. */
function headText(bytes: Buffer, cap: number): string {
  const head = bytes.subarray(0, Math.min(cap, bytes.length));
  return decoder.decode(bytes.length > cap ? head.subarray(0, utf8Boundary(head, head.length)) : head);
}

/** The `stdoutTail` the contract gives: the last `min(cap, bytes - cap)` bytes from a whole character. */
function tailText(bytes: Buffer, cap: number): string | undefined {
  if (bytes.length <= cap) return undefined;
  const tail = bytes.subarray(bytes.length - Math.min(cap, bytes.length - cap));
  let start = 0;
  while (start < 3 && start < tail.length && ((tail[start] as number) & 0xc0) === 0x80) start++;
  return decoder.decode(tail.subarray(start));
}

/** Random bytes with invalid UTF-8 and split multi-byte characters around every cut. */
function binary(length: number): Buffer {
  const bytes = randomBytes(length);
  const euro = Buffer.from('€', 'utf8');
  for (let at = 0; at + 3 < length; at += 4099) euro.copy(bytes, at);
  return bytes;
}

let handle: StandInE2BHandle;
let stdoutBytes: Buffer;
let stderrBytes: Buffer;
beforeAll(async () => {
  handle = await createStandInE2BAdapter().create();
  stdoutBytes = binary(3 * 2 ** 20 + 123);
  stderrBytes = binary(700_001);
  await handle.client.writeFile('out.bin', stdoutBytes);
  await handle.client.writeFile('err.bin', stderrBytes);
}, 30_000);
/** Kept logs of cut runs: the stand-in's /tmp is the host's, so they are removed here. */
const keptLogs: string[] = [];
afterAll(async () => {
  if (keptLogs.length > 0) await handle.client.exec(formatCommand(['rm', '-f', '--', ...keptLogs]));
  await handle?.destroy();
});

/** Runs `command`, which must write its `$SANDKIT_EXEC_ID` to `id.txt`; the result, the call's id and the SDK file calls it made. */
async function run(
  command: string,
  options: { maxOutputBytes?: number; timeoutMs?: number; during?: () => void } = {},
): Promise<{ result: ExecResult; id: string; reads: unknown[][]; removes: unknown[][] }> {
  const read = vi.spyOn(handle.sandbox.files, 'read');
  const remove = vi.spyOn(handle.sandbox.files, 'remove');
  try {
    const pending = handle.client.exec(`printf %s "$SANDKIT_EXEC_ID" > id.txt; ${command}`, {
      ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    options.during?.();
    const result = await pending;
    if (result.outputLog) keptLogs.push(result.outputLog.stdout, result.outputLog.stderr);
    const reads = read.mock.calls.map((call) => [...call]);
    const removes = remove.mock.calls.map((call) => [...call]);
    const id = decoder.decode(await handle.client.readFile('id.txt'));
    return { result, id, reads, removes };
  } finally {
    read.mockRestore();
    remove.mockRestore();
  }
}

/** The control files of call `id` left in the sandbox (status, pgid, stdin, slices). */
async function leftovers(id: string): Promise<string> {
  const listed = await handle.client.exec(`ls -a ${execDir} | grep -F -e ${id} || true`);
  return listed.stdout;
}

describe('fetchRecordSlices (through runE2BCommand)', () => {
  describe('when both streams of a binary output are cut', () => {
    it('returns the exact heads and tails of both streams, fetched raw in one read, and removes the file', async () => {
      const cap = 200_000;
      const { result, id, reads, removes } = await run('cat out.bin; cat err.bin >&2; exit 7', {
        maxOutputBytes: cap,
      });
      expect(result).toMatchObject({
        exitCode: 7,
        signal: null,
        timedOut: false,
        stdoutBytes: stdoutBytes.length,
        stderrBytes: stderrBytes.length,
        stdoutTruncated: true,
        stderrTruncated: true,
      });
      expect(result.stdout).toBe(headText(stdoutBytes, cap));
      expect(result.stdoutTail).toBe(tailText(stdoutBytes, cap));
      expect(result.stderr).toBe(headText(stderrBytes, cap));
      expect(result.stderrTail).toBe(tailText(stderrBytes, cap));
      expect(reads.map((call) => call[0])).toEqual([slicesPath(id)]);
      expect(removes.map((call) => call[0])).toEqual([slicesPath(id)]);
      expect(await leftovers(id)).toBe('');
      // The cut streams' logs are kept whole, as the contract says.
      const log = result.outputLog as { stdout: string; stderr: string };
      expect(Buffer.from(await handle.client.readFile(log.stdout)).equals(stdoutBytes)).toBe(true);
      expect(Buffer.from(await handle.client.readFile(log.stderr)).equals(stderrBytes)).toBe(true);
    }, 60_000);

    it('reports a death by signal with the default 1 MiB cap', async () => {
      const cap = 2 ** 20;
      const { result, id, reads } = await run('cat out.bin; echo small >&2; kill -TERM $$');
      expect(result).toMatchObject({
        exitCode: null,
        signal: 'SIGTERM',
        stdoutBytes: stdoutBytes.length,
        stdoutTruncated: true,
        stderr: 'small\n',
        stderrTruncated: false,
      });
      expect(result.stdout).toBe(headText(stdoutBytes, cap));
      expect(result.stdoutTail).toBe(tailText(stdoutBytes, cap));
      expect(result.stderrTail).toBeUndefined();
      expect(reads).toHaveLength(1);
      expect(await leftovers(id)).toBe('');
    }, 60_000);
  });

  describe('when the slices come to just the inline limit or one byte more', () => {
    it('returns the first inline, in the one round trip of the command', async () => {
      const bytes = stdoutBytes.subarray(0, inlineSliceBytes);
      const { result, id, reads, removes } = await run(`head -c ${inlineSliceBytes} out.bin`);
      expect(result).toMatchObject({ exitCode: 0, stdoutBytes: bytes.length, stdoutTruncated: false });
      expect(result.stdout).toBe(decoder.decode(bytes));
      expect(result.outputLog).toBeUndefined();
      expect(reads).toEqual([]);
      expect(removes).toEqual([]);
      expect(await leftovers(id)).toBe('');
    }, 30_000);

    it('reads the second from the slices file, whole and uncut, and leaves nothing behind', async () => {
      const bytes = stdoutBytes.subarray(0, inlineSliceBytes + 1);
      const { result, id, reads, removes } = await run(`head -c ${inlineSliceBytes + 1} out.bin`);
      expect(result).toMatchObject({ exitCode: 0, stdoutBytes: bytes.length, stdoutTruncated: false });
      expect(result.stdout).toBe(decoder.decode(bytes));
      expect(result.outputLog).toBeUndefined();
      expect(reads.map((call) => call[0])).toEqual([slicesPath(id)]);
      expect(removes.map((call) => call[0])).toEqual([slicesPath(id)]);
      expect(await leftovers(id)).toBe('');
    }, 30_000);

    it('counts both streams together: one byte over, split across stdout and stderr', async () => {
      const half = inlineSliceBytes / 2;
      const { result, id, reads } = await run(`head -c ${half} out.bin; head -c ${half + 1} err.bin >&2`);
      expect(result.stdout).toBe(decoder.decode(stdoutBytes.subarray(0, half)));
      expect(result.stderr).toBe(decoder.decode(stderrBytes.subarray(0, half + 1)));
      expect(reads).toHaveLength(1);
      expect(await leftovers(id)).toBe('');
    }, 30_000);
  });

  describe('when the command times out after printing a big output', () => {
    it('returns timedOut with the exact head and tail so far, and removes the slices file', async () => {
      const cap = 2 ** 20;
      const { result, id, reads } = await run('cat out.bin; sleep 119.25', { timeoutMs: 1500 });
      expect(result).toMatchObject({
        exitCode: null,
        timedOut: true,
        stdoutBytes: stdoutBytes.length,
        stdoutTruncated: true,
      });
      expect(result.stdout).toBe(headText(stdoutBytes, cap));
      expect(result.stdoutTail).toBe(tailText(stdoutBytes, cap));
      expect(reads).toHaveLength(1);
      expect(await leftovers(id)).toBe('');
    }, 60_000);
  });

  describe('when the command stream is cut off and the logs are collected by the kill', () => {
    it('fetches the slices the collecting kill left, and removes them', async () => {
      const cap = 2 ** 20;
      const { result, id, reads } = await run('cat out.bin; sleep 118.25', {
        timeoutMs: 60_000,
        during: () => setTimeout(() => handle.standIn.dropStreams(), 1500),
      });
      expect(result).toMatchObject({ exitCode: null, timedOut: true, stdoutBytes: stdoutBytes.length });
      expect(result.stdout).toBe(headText(stdoutBytes, cap));
      expect(result.stdoutTail).toBe(tailText(stdoutBytes, cap));
      expect(reads).toHaveLength(1);
      expect(await leftovers(id)).toBe('');
    }, 60_000);
  });
});
