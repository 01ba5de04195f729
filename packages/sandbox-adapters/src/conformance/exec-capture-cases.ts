/**
 * Conformance cases for output captured where the command runs: a background child that keeps
 * writing cannot hold the call, the head and the tail of a cut stream are exact, bytes passed to
 * streaming callbacks are the command's bytes unchanged, the whole log stays readable in the
 * sandbox (with bounded retention), a command that removes its own logs still gets its output, and
 * 1 GiB of output leaves host memory flat.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { formatCommand, utf8Boundary } from '@sandkit/core';
import { describe, expect } from 'vitest';
import {
  type ConformanceContext,
  describeResult,
  expectSandboxError,
  processesWithMarker,
  processMarker,
} from './conformance-context.js';

/** The text `seq 1 n` prints. */
function seqText(n: number): string {
  let text = '';
  for (let value = 1; value <= n; value++) text += `${value}\n`;
  return text;
}

const decoder = new TextDecoder();

/** Random bytes (invalid UTF-8 among them) with a 3-byte character every 4099 bytes, so cuts split some. */
function binaryBytes(length: number): Buffer {
  const bytes = randomBytes(length);
  for (let at = 0; at + 3 < length; at += 4099) bytes.write('€', at, 'utf8');
  return bytes;
}

/** What the contract returns for a stream of `bytes` cut at `cap`: head (whole characters) and tail. */
function cutText(bytes: Buffer, cap: number): { head: string; tail: string } {
  const head = bytes.subarray(0, cap);
  const tail = bytes.subarray(bytes.length - Math.min(cap, bytes.length - cap));
  let start = 0;
  while (start < 3 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
  return {
    head: decoder.decode(head.subarray(0, utf8Boundary(head, head.length))),
    tail: decoder.decode(tail.subarray(start)),
  };
}

/** Registers the capture cases. */
export function describeExecCaptureCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();
  const killMarked = async (pattern: string): Promise<void> => {
    const pids = await processesWithMarker(client(), pattern);
    if (pids.length > 0) await client().exec(`${formatCommand(['kill', '-9', ...pids])} 2>/dev/null; true`);
  };

  describe('capture', () => {
    test(
      'capture.background-writer',
      'returns at once when a background child keeps writing to stdout, with or without callbacks',
      async () => {
        for (const live of [false, true]) {
          const { marker, pattern } = processMarker();
          const started = Date.now();
          const result = await client().exec(
            `sh -c 'while :; do echo tick; sleep 0.05; done' ${marker} & echo started; exit 4`,
            { timeoutMs: scaled(20_000), ...(live ? { onStdout: () => undefined } : {}) },
          );
          const wallMs = Date.now() - started;
          await killMarked(pattern);
          expect(result, describeResult(result)).toMatchObject({ exitCode: 4, timedOut: false });
          expect(result.stdout).toMatch(/started\n/);
          expect(wallMs, `live=${live}`).toBeLessThan(scaled(1000));
        }
      },
    );
    test('capture.head-tail', 'returns the exact head and tail of a cut stdout', async () => {
      const whole = seqText(100_000);
      const result = await client().exec('seq 1 100000', { maxOutputBytes: 1000 });
      expect(result, describeResult(result)).toMatchObject({
        exitCode: 0,
        stdoutBytes: whole.length,
        stdoutTruncated: true,
        stdout: whole.slice(0, 1000),
        stdoutTail: whole.slice(-1000),
        stderr: '',
        stderrTruncated: false,
      });
      expect(result.stderrTail).toBeUndefined();
      // Between one and two caps, head and tail together are the whole stream.
      const short = seqText(400);
      const within = await client().exec('seq 1 400', { maxOutputBytes: 1000 });
      expect(within.stdout + within.stdoutTail).toBe(short);
      const fits = await client().exec('seq 1 10', { maxOutputBytes: 1000 });
      expect(fits).toMatchObject({ stdout: seqText(10), stdoutTruncated: false });
      expect(fits.stdoutTail).toBeUndefined();
      expect(fits.outputLog).toBeUndefined();
    });
    test(
      'capture.log-removed',
      'returns the whole output, head and tail, of a command that removes its own log files',
      async () => {
        // Where the output goes to a log file, fds 1 and 2 name it: the command unlinks both (a
        // pipe's name, elsewhere, names no file). Small, above 64 KiB, and cut.
        const unlink = 'rm -f -- "$(readlink /proc/$$/fd/1)" "$(readlink /proc/$$/fd/2)"';
        for (const [lines, cap] of [
          [10, 1024 * 1024],
          [30_000, 1024 * 1024],
          [100_000, 1000],
        ] as const) {
          const whole = seqText(lines);
          const result = await client().exec(`seq 1 ${lines}; ${unlink}; echo after >&2; exit 3`, {
            maxOutputBytes: cap,
          });
          const cut = whole.length > cap;
          expect(
            {
              exitCode: result.exitCode,
              signal: result.signal,
              stdoutBytes: result.stdoutBytes,
              head: result.stdout === whole.slice(0, cut ? cap : undefined),
              tail: cut ? result.stdoutTail === whole.slice(-cap) : result.stdoutTail === undefined,
              stderr: result.stderr,
            },
            describeResult(result),
          ).toEqual({
            exitCode: 3,
            signal: null,
            stdoutBytes: whole.length,
            head: true,
            tail: true,
            stderr: 'after\n',
          });
        }
      },
    );
    test('capture.head-tail-stderr', 'cuts stderr to its own head and tail', async () => {
      const whole = seqText(50_000);
      const result = await client().exec('echo out; seq 1 50000 >&2', { maxOutputBytes: 300 });
      expect(result, describeResult(result)).toMatchObject({
        stdout: 'out\n',
        stdoutTruncated: false,
        stderr: whole.slice(0, 300),
        stderrTail: whole.slice(-300),
        stderrBytes: whole.length,
        stderrTruncated: true,
      });
    });
    test(
      'capture.binary-exact',
      'passes every byte of binary output to onStdout unchanged, beyond the cap too',
      async () => {
        const bytes = randomBytes(300_000);
        await client().writeFile('capture-binary.bin', bytes);
        const chunks: Uint8Array[] = [];
        const result = await client().exec('cat capture-binary.bin; printf done >&2', {
          maxOutputBytes: 1000,
          onStdout: (chunk) => chunks.push(Uint8Array.from(chunk)),
          timeoutMs: scaled(20_000),
        });
        expect(result, describeResult(result)).toMatchObject({
          exitCode: 0,
          stdoutBytes: bytes.length,
          stdoutTruncated: true,
          stderr: 'done',
        });
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      },
      30_000,
    );
    test(
      'capture.binary-head-tail',
      'returns the exact head and tail of both cut streams of binary output, with their flags',
      async () => {
        const out = binaryBytes(1_500_000);
        const err = binaryBytes(700_001);
        await client().writeFile('capture-out.bin', out);
        await client().writeFile('capture-err.bin', err);
        const cap = 200_000;
        const result = await client().exec('cat capture-out.bin; cat capture-err.bin >&2; exit 5', {
          maxOutputBytes: cap,
          timeoutMs: scaled(20_000),
        });
        expect(result, describeResult(result)).toMatchObject({
          exitCode: 5,
          signal: null,
          stdoutBytes: out.length,
          stderrBytes: err.length,
          stdoutTruncated: true,
          stderrTruncated: true,
        });
        const [stdout, stderr] = [cutText(out, cap), cutText(err, cap)];
        expect(result.stdout === stdout.head, 'stdout head').toBe(true);
        expect(result.stdoutTail === stdout.tail, 'stdout tail').toBe(true);
        expect(result.stderr === stderr.head, 'stderr head').toBe(true);
        expect(result.stderrTail === stderr.tail, 'stderr tail').toBe(true);
        const logs = result.outputLog ? [result.outputLog.stdout, result.outputLog.stderr] : [];
        await client().exec(formatCommand(['rm', '-f', '--', 'capture-out.bin', 'capture-err.bin', ...logs]));
      },
      30_000,
    );
    test(
      'capture.log-kept',
      'keeps the whole cut stream in the sandbox at outputLog, and only a bounded number of logs',
      async () => {
        const whole = seqText(20_000);
        const first = await client().exec('seq 1 20000; echo e >&2', { maxOutputBytes: 100 });
        expect(first.outputLog, describeResult(first)).toBeDefined();
        const log = first.outputLog as { stdout: string; stderr: string };
        expect(Buffer.from(await client().readFile(log.stdout)).toString('utf8')).toBe(whole);
        expect(Buffer.from(await client().readFile(log.stderr)).toString('utf8')).toBe('e\n');
        for (let run = 0; run < 12; run++) await client().exec('seq 1 1000', { maxOutputBytes: 10 });
        await expectSandboxError(client().readFile(log.stdout), 'file_not_found');
      },
      60_000,
    );
    test(
      'capture.big-output-memory',
      'keeps host memory flat while a command prints 1 GiB, and reports every byte',
      async () => {
        globalThis.gc?.();
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 10);
        const result = await client()
          .exec('head -c 1073741824 /dev/zero', { timeoutMs: scaled(120_000) })
          .finally(() => clearInterval(sampler));
        expect(result, describeResult(result)).toMatchObject({
          exitCode: 0,
          stdoutBytes: 2 ** 30,
          stdoutTruncated: true,
          timedOut: false,
        });
        expect(result.stdout.length).toBe(2 ** 20);
        expect(result.stdoutTail?.length).toBe(2 ** 20);
        expect(peak - before).toBeLessThan(64 * 2 ** 20);
        if (result.outputLog) await client().exec(formatCommand(['rm', '-f', result.outputLog.stdout]));
      },
      240_000,
    );
  });
}
