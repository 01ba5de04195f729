/** What {@link truncateUtf8} returns. */
export interface TruncatedText {
  /** The kept text: a prefix of the input ending on a whole character. */
  text: string;
  /** UTF-8 bytes kept (the byte length of `text`). */
  keptBytes: number;
  /** UTF-8 bytes of the whole input. */
  totalBytes: number;
  /** `true` when something was cut. */
  truncated: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/**
 * Cuts text (or UTF-8 bytes) to at most `maxBytes` UTF-8 bytes without splitting a character:
 * the cut backs up to the end of the last complete UTF-8 sequence, so the result never holds a
 * U+FFFD or a lone surrogate that was not in the input.
 *
 * @param input text, or bytes taken as UTF-8
 * @param maxBytes non-negative integer byte limit
 * @throws RangeError when `maxBytes` is negative or not an integer
 */
export function truncateUtf8(input: string | Uint8Array, maxBytes: number): TruncatedText {
  if (!Number.isInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  const totalBytes = bytes.length;
  if (totalBytes <= maxBytes) {
    const text = typeof input === 'string' ? input : decoder.decode(bytes);
    return { text, keptBytes: totalBytes, totalBytes, truncated: false };
  }
  const end = utf8Boundary(bytes, maxBytes);
  return { text: decoder.decode(bytes.subarray(0, end)), keptBytes: end, totalBytes, truncated: true };
}

/**
 * The largest index `<= index` at which `bytes` can be cut without splitting a UTF-8 sequence:
 * `bytes.subarray(0, result)` ends with a complete character. Works at `index === bytes.length`
 * too (drops an incomplete trailing sequence). Bytes that are not valid UTF-8 count as single units.
 */
export function utf8Boundary(bytes: Uint8Array, index: number): number {
  const end = Math.min(Math.max(index, 0), bytes.length);
  // Find the lead byte of the sequence the byte before `end` belongs to (at most 3 steps back).
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return end;
  const first = bytes[lead] ?? 0;
  if (first < 0xc0) return end; // ASCII, or a stray continuation byte kept as a unit
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : 2;
  return lead + length <= end ? end : lead;
}
