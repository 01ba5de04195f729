/**
 * Conformance cases for output: the per-stream cap applied while streaming, full byte counts,
 * UTF-8-safe cuts (B25), and many commands at once on one sandbox.
 * @module
 */
import { type ExecOptions, SandkitError } from '@sandkit/core';
import { describe, expect } from 'vitest';
import { type ConformanceContext, describeResult } from './conformance-context.js';

/** Registers the output-cap, concurrency and option-validation cases. */
export function describeExecOutputCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();
  const wellFormed = (text: string) =>
    !/\uFFFD/.test(text) &&
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
  // 19 × 'a', then ✓ (e2 9c 93), ' done', 😀 (f0 9f 98 80): 31 bytes.
  const b25 = "printf 'aaaaaaaaaaaaaaaaaaa\\342\\234\\223 done\\360\\237\\230\\200'";

  describe('output cap', () => {
    test('exec.cap-stdout', 'keeps maxOutputBytes of stdout and counts every byte', async () => {
      const result = await client().exec("head -c 3000000 /dev/zero | tr '\\0' a; echo err >&2", {
        maxOutputBytes: 1000,
      });
      expect(result, describeResult(result)).toMatchObject({
        exitCode: 0,
        stdoutBytes: 3_000_000,
        stdoutTruncated: true,
      });
      expect(result.stdout).toBe('a'.repeat(1000));
      expect(result).toMatchObject({ stderr: 'err\n', stderrBytes: 4, stderrTruncated: false });
    });
    test('exec.cap-stderr', 'caps stderr on its own', async () => {
      const result = await client().exec("echo out; head -c 50000 /dev/zero | tr '\\0' e >&2", {
        maxOutputBytes: 100,
      });
      expect(result).toMatchObject({
        stdout: 'out\n',
        stdoutTruncated: false,
        stderrBytes: 50_000,
        stderrTruncated: true,
      });
      expect(result.stderr).toBe('e'.repeat(100));
    });
    test('exec.cap-default', 'caps each stream at 1 MiB by default', async () => {
      const result = await client().exec("head -c 3145728 /dev/zero | tr '\\0' z", {
        timeoutMs: scaled(30_000),
      });
      expect(result).toMatchObject({ exitCode: 0, stdoutBytes: 3 * 1024 * 1024, stdoutTruncated: true });
      expect(result.stdout.length).toBe(1024 * 1024);
    });
    test('exec.cap-zero', 'keeps nothing with maxOutputBytes 0 but still counts', async () => {
      const result = await client().exec('echo hello', { maxOutputBytes: 0 });
      expect(result).toMatchObject({ stdout: '', stdoutBytes: 6, stdoutTruncated: true, exitCode: 0 });
    });
    test('exec.cap-exact', 'is not truncated when the output is exactly the cap', async () => {
      const result = await client().exec('printf 12345', { maxOutputBytes: 5 });
      expect(result).toMatchObject({ stdout: '12345', stdoutBytes: 5, stdoutTruncated: false });
    });
    test(
      'exec.cap-utf8-check-mark',
      'B25: a cap falling inside ✓ backs up to the last whole character',
      async () => {
        const result = await client().exec(b25, { maxOutputBytes: 20 });
        expect(result, describeResult(result)).toMatchObject({
          stdout: 'a'.repeat(19),
          stdoutBytes: 31,
          stdoutTruncated: true,
        });
        expect(wellFormed(result.stdout)).toBe(true);
        for (const cap of [20, 21]) {
          const again = await client().exec(b25, { maxOutputBytes: cap });
          expect(again.stdout).toBe('a'.repeat(19));
        }
      },
    );
    test(
      'exec.cap-utf8-emoji',
      'B25: a cap falling inside 😀 never leaves a lone surrogate or U+FFFD',
      async () => {
        for (const cap of [27, 28, 29, 30]) {
          const result = await client().exec(b25, { maxOutputBytes: cap });
          expect(result, describeResult(result)).toMatchObject({
            stdout: `${'a'.repeat(19)}✓ done`,
            stdoutBytes: 31,
            stdoutTruncated: true,
          });
          expect(wellFormed(result.stdout)).toBe(true);
        }
        const whole = await client().exec(b25, { maxOutputBytes: 31 });
        expect(whole).toMatchObject({ stdout: `${'a'.repeat(19)}✓ done😀`, stdoutTruncated: false });
      },
    );
    test(
      'exec.cap-utf8-many-chunks',
      'B25: multi-byte text split across many chunks decodes whole',
      async () => {
        const result = await client().exec("i=0; while [ $i -lt 2000 ]; do printf '✓😀é'; i=$((i+1)); done", {
          maxOutputBytes: 5001,
        });
        expect(result.stdoutBytes).toBe(2000 * 9);
        expect(wellFormed(result.stdout)).toBe(true);
        expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(5001);
        expect(Buffer.byteLength(result.stdout)).toBeGreaterThan(5001 - 4);
        expect(`${'✓😀é'.repeat(600)}`.startsWith(result.stdout)).toBe(true);
      },
      30_000,
    );
  });

  describe('concurrency', () => {
    test(
      'exec.concurrent-32',
      'runs 32 commands at once on one sandbox, each with its own output',
      async () => {
        const results = await Promise.all(
          Array.from({ length: 32 }, (_, index) =>
            client().exec(`sleep 0.2; echo "out ${index}"; echo "err ${index}" >&2; exit ${index % 3}`, {
              timeoutMs: scaled(20_000),
            }),
          ),
        );
        results.forEach((result, index) => {
          expect(result, describeResult(result)).toMatchObject({
            stdout: `out ${index}\n`,
            stderr: `err ${index}\n`,
            exitCode: index % 3,
          });
        });
      },
      40_000,
    );
  });

  describe('options', () => {
    const bad: Array<[string, Record<string, unknown>]> = [
      ['maxOutputBytes -1', { maxOutputBytes: -1 }],
      ['maxOutputBytes 1.5', { maxOutputBytes: 1.5 }],
      ['maxOutputBytes NaN', { maxOutputBytes: Number.NaN }],
      ['timeoutMs 0', { timeoutMs: 0 }],
      ['timeoutMs -5', { timeoutMs: -5 }],
      ['timeoutMs NaN', { timeoutMs: Number.NaN }],
      ['timeoutMs Infinity', { timeoutMs: Number.POSITIVE_INFINITY }],
      ["shell 'zsh'", { shell: 'zsh' }],
    ];
    test(
      'exec.invalid-options',
      'rejects bad options with SandkitError invalid_option and runs nothing',
      async () => {
        for (const [label, options] of bad) {
          const error = await client()
            .exec('touch invalid-option-ran', options as ExecOptions)
            .then(
              () => undefined,
              (caught: unknown) => caught,
            );
          expect(SandkitError.isInstance(error), `${label} should throw a SandkitError`).toBe(true);
          expect((error as SandkitError).code, label).toBe('invalid_option');
        }
        const check = await client().exec('test -e invalid-option-ran && echo ran || echo clean');
        expect(check.stdout).toBe('clean\n');
      },
    );
  });
}
