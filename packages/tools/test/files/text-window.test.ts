import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTextWindow } from '../../src/files/text-window.js';

/** Byte tokens: ASCII, tabs, LF and CRLF, 2-, 3- and 4-byte characters, and two invalid bytes. */
const tokens = [
  ...['a', 'bc', ' ', '\t', '\n', '\r\n', 'é', '✓', '😀'].map((t) => Buffer.from(t, 'utf8')),
  Buffer.from([0xe9]),
  Buffer.from([0x80]),
];
const file = fc
  .array(fc.integer({ min: 0, max: tokens.length - 1 }), { maxLength: 300 })
  .map((parts) => Buffer.concat(parts.map((i) => tokens[i]!)));

/** Pages through `bytes` with the continuations, as a model would; returns each window. */
function page(bytes: Buffer, maxTextBytes: number, maxLineChars: number) {
  const windows: ReturnType<typeof formatTextWindow>[] = [];
  let [start, startLine] = [0, 1];
  for (let step = 0; step <= bytes.length + 1; step++) {
    const window = formatTextWindow({
      bytes: bytes.subarray(start),
      start,
      startLine,
      fileSize: bytes.length,
      maxLines: 2000,
      maxTextBytes,
      maxLineChars,
      lineNumbers: false,
    });
    windows.push(window);
    if (!window.next) return { windows, finished: true };
    expect(window.next.byteOffset).toBeGreaterThan(start);
    [start, startLine] = [window.next.byteOffset, window.next.offset];
  }
  return { windows, finished: false };
}

describe('formatTextWindow', () => {
  it('stays within the byte budget, never invents U+FFFD, and its continuations reach the end (property)', () => {
    fc.assert(
      fc.property(
        file,
        fc.integer({ min: 424, max: 2000 }),
        fc.integer({ min: 1, max: 60 }),
        (bytes, maxTextBytes, maxLineChars) => {
          const { windows, finished } = page(bytes, maxTextBytes, maxLineChars);
          expect(finished).toBe(true);
          for (const window of windows) {
            expect(Buffer.byteLength(window.text)).toBeLessThanOrEqual(maxTextBytes);
            if (window.invalidUtf8At === null) expect(window.text).not.toContain('\uFFFD');
            expect(window.text).not.toMatch(
              /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reassembles the file exactly (CRLF shown as LF) when no line is clipped (property)', () => {
    fc.assert(
      fc.property(file, fc.integer({ min: 424, max: 2000 }), (bytes, maxTextBytes) => {
        const { windows } = page(bytes, maxTextBytes, 100_000);
        if (windows.some((w) => w.clippedLines.length > 0)) return;
        const shown = windows
          .filter((w) => w.linesShown > 0)
          .map((w) => w.text)
          .join('\n');
        const expected = new TextDecoder().decode(bytes).replaceAll('\r\n', '\n').replace(/\n$/, '');
        expect(shown).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
