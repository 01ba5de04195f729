import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capturedOutput, OutputWindow } from '../../src/capture/output-window.js';

/** Feeds `bytes` to a window in chunks of the given sizes (cycled). */
function fed(cap: number, bytes: Uint8Array, sizes: number[]): OutputWindow {
  const window = new OutputWindow(cap);
  let at = 0;
  for (let index = 0; at < bytes.length; index++) {
    const size = Math.max(1, sizes[index % sizes.length] ?? 1);
    window.push(bytes.subarray(at, at + size));
    at += size;
  }
  return window;
}

describe('OutputWindow', () => {
  describe('when every byte of an ASCII stream is pushed', () => {
    it('keeps the first cap bytes and the last min(cap, total - cap) bytes, in any chunking', () => {
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'z'), maxLength: 400 }),
          fc.integer({ min: 0, max: 120 }),
          fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }),
          (text, cap, sizes) => {
            const result = fed(cap, Buffer.from(text), sizes).result();
            expect(result.bytes).toBe(text.length);
            expect(result.text).toBe(text.slice(0, cap));
            expect(result.truncated).toBe(text.length > cap);
            const tail = Math.min(cap, text.length - cap);
            expect(result.tail).toBe(tail > 0 ? text.slice(text.length - tail) : undefined);
          },
        ),
      );
    });
  });
  describe('when only the head and tail slices arrive with the total given', () => {
    it('reports the total and the tail as the last bytes received', () => {
      const window = new OutputWindow(4);
      window.push(Buffer.from('abcd'));
      window.push(Buffer.from('wxyz'));
      expect(window.result(1_000)).toEqual({ text: 'abcd', bytes: 1_000, truncated: true, tail: 'wxyz' });
    });
  });
  describe('when a cut falls inside a multi-byte character', () => {
    it('backs the head up and starts the tail on a whole character, never a U+FFFD', () => {
      // 'aé' + 'x' * 3 + 'é' + 'b': the head cut at 2 bytes splits the first é, the tail's start
      // (last 3 bytes) splits the second.
      const bytes = Buffer.from('aéxxxéb');
      const result = fed(2, bytes, [1]).result();
      expect(result.text).toBe('a');
      expect(result.tail).toBe('b');
      expect(`${result.text}${result.tail}`).not.toMatch(/\uFFFD/);
    });
  });
});

describe('capturedOutput', () => {
  it('reports outputLog only when a stream was cut', () => {
    const log = { stdout: '/l.out', stderr: '/l.err' };
    const small = capturedOutput(
      fed(10, Buffer.from('hi'), [2]),
      fed(10, Buffer.from(''), [1]),
      undefined,
      log,
    );
    expect(small.outputLog).toBeUndefined();
    const cut = capturedOutput(fed(1, Buffer.from('hi'), [2]), fed(10, Buffer.from(''), [1]), undefined, log);
    expect(cut).toMatchObject({ stdout: 'h', stdoutTail: 'i', stdoutTruncated: true, outputLog: log });
  });
});
