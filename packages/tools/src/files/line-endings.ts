/**
 * Line-ending detection, so tools can say `lineEnding: 'crlf'` instead of silently normalising.
 * @module
 */

/** How a text's lines end: all `\n`, all `\r\n`, both kinds (`mixed`), or `null` with no line break. */
export type LineEnding = 'lf' | 'crlf' | 'mixed';

/** Counts `\n` and `\r\n` breaks in `bytes[start, end)`. */
export function countLineBreaks(
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
): { lf: number; crlf: number } {
  let lf = 0;
  let crlf = 0;
  let i = bytes.indexOf(0x0a, start);
  while (i !== -1 && i < end) {
    if (i > start && bytes[i - 1] === 0x0d) crlf++;
    else lf++;
    i = bytes.indexOf(0x0a, i + 1);
  }
  return { lf, crlf };
}

/** The line ending of `bytes[start, end)`, or `null` when it holds no line break. */
export function detectLineEnding(bytes: Uint8Array, start = 0, end = bytes.length): LineEnding | null {
  const { lf, crlf } = countLineBreaks(bytes, start, end);
  if (lf === 0 && crlf === 0) return null;
  if (crlf === 0) return 'lf';
  return lf === 0 ? 'crlf' : 'mixed';
}
