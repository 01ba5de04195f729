/**
 * Line arithmetic on bytes: how many lines, where line N starts.
 * @module
 */

/** Lines in `bytes`: newlines, plus one for a last line without a newline. */
export function countLines(bytes: Uint8Array): number {
  const newlines = countNewlines(bytes, bytes.length);
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? newlines + 1 : newlines;
}

/** `\n` bytes in `bytes[0, end)`. */
export function countNewlines(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}

/** Byte offset where 1-based `line` starts (the end of `bytes` when it has fewer lines). */
export function lineStart(bytes: Uint8Array, line: number): number {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline === -1) return bytes.length;
    start = newline + 1;
  }
  return start;
}
