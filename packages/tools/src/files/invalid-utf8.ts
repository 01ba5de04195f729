/**
 * Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), used to
 * tell the model where a file stops being valid UTF-8 instead of silently showing U+FFFD.
 * @module
 */

/**
 * Index of the first byte of `bytes[start, end)` that is not part of a valid UTF-8 sequence, or
 * `-1` when the range is valid. A sequence cut by `end` counts as invalid unless `allowCutTail`.
 */
export function findInvalidUtf8(
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
  allowCutTail = false,
): number {
  let i = start;
  while (i < end) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(b);
    if (length === 0) return i;
    if (i + length > end) {
      if (!allowCutTail) return i;
      for (let k = i + 1; k < end; k++) if (!continuationAt(bytes, k, b, k - i)) return i;
      return -1;
    }
    for (let k = 1; k < length; k++) if (!continuationAt(bytes, i + k, b, k)) return i;
    i += length;
  }
  return -1;
}

/** Sequence length announced by a lead byte, or 0 when it cannot start a sequence. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `bytes[index]` is a valid `position`-th byte after `lead` (ranges of RFC 3629 table 3-7). */
function continuationAt(bytes: Uint8Array, index: number, lead: number, position: number): boolean {
  const b = bytes[index] ?? 0;
  if (position === 1) {
    if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
    if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
    if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
    if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  }
  return b >= 0x80 && b <= 0xbf;
}
