import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateUtf8, utf8Boundary } from '../src/truncate-utf8.js';

const encoder = new TextEncoder();

describe('truncateUtf8', () => {
  describe('when the cap falls inside a multi-byte character', () => {
    it('B25: backs up before ✓ (e2 9c 93) and reports kept and total bytes', () => {
      const input = `${'a'.repeat(19)}✓ done😀`;
      const result = truncateUtf8(input, 20);
      expect(result).toEqual({ text: 'a'.repeat(19), keptBytes: 19, totalBytes: 31, truncated: true });
      expect(result.text).not.toContain('\uFFFD');
    });

    it('B25: backs up before 😀 without leaving a lone surrogate, for every cut inside it', () => {
      const input = `${'a'.repeat(19)}✓ done😀`; // 😀 takes bytes 27..30
      for (const cap of [27, 28, 29, 30]) {
        const result = truncateUtf8(input, cap);
        expect(result.text).toBe(`${'a'.repeat(19)}✓ done`);
        expect(result.keptBytes).toBe(27);
        expect(result.text.at(-1)).toBe('e');
      }
      expect(truncateUtf8(input, 31)).toMatchObject({ text: input, truncated: false });
    });

    it('B25: does the same for bytes as for text', () => {
      const bytes = encoder.encode(`${'a'.repeat(19)}✓ done😀`);
      expect(truncateUtf8(bytes, 20)).toEqual({
        text: 'a'.repeat(19),
        keptBytes: 19,
        totalBytes: 31,
        truncated: true,
      });
      expect(truncateUtf8(bytes, 29).text).toBe(`${'a'.repeat(19)}✓ done`);
    });
  });

  it('returns an empty text for a cap of 0 and rejects a negative or fractional cap', () => {
    expect(truncateUtf8('abc', 0)).toEqual({ text: '', keptBytes: 0, totalBytes: 3, truncated: true });
    expect(() => truncateUtf8('abc', -1)).toThrow(RangeError);
    expect(() => truncateUtf8('abc', 1.5)).toThrow(RangeError);
  });

  it('keeps the longest whole-character prefix within the cap, for any text and cap (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(200), (text, cap) => {
        const result = truncateUtf8(text, cap);
        const total = encoder.encode(text).length;
        expect(result.totalBytes).toBe(total);
        expect(result.keptBytes).toBe(encoder.encode(result.text).length);
        expect(result.keptBytes).toBeLessThanOrEqual(cap);
        expect(text.startsWith(result.text)).toBe(true);
        expect(result.truncated).toBe(total > cap);
        // no whole code point could have been added
        const next = text.slice(result.text.length).codePointAt(0);
        if (next !== undefined)
          expect(result.keptBytes + encoder.encode(String.fromCodePoint(next)).length).toBeGreaterThan(cap);
      }),
      { numRuns: 500 },
    );
  });
});

describe('utf8Boundary', () => {
  it('drops an incomplete trailing sequence and keeps stray continuation bytes as units', () => {
    const euro = encoder.encode('€'); // e2 82 ac
    expect(utf8Boundary(euro, 3)).toBe(3);
    expect(utf8Boundary(euro, 2)).toBe(0);
    expect(utf8Boundary(euro.subarray(0, 2), 2)).toBe(0);
    expect(utf8Boundary(new Uint8Array([0x61, 0x80, 0x80]), 3)).toBe(3);
  });
});
