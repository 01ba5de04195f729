/**
 * Recognises a line that a damaged log cut short next to its whole copy (a line written twice and
 * one copy cut, as interleaved or truncated writes leave it). For runners whose per-test lines
 * end with the test's name, such a copy would otherwise read as one more test.
 * @module
 */

/** Lines either side of a line searched for its whole copy. */
const window = 2;

/**
 * Whether `lines[index]` is a strict, non-empty prefix of a line at most two lines away: the cut
 * copy of that line. Pure; never throws.
 */
export function isCutCopy(lines: readonly string[], index: number): boolean {
  const line = (lines[index] as string | undefined)?.trimEnd() ?? '';
  if (line.trim() === '') return false;
  for (
    let other = Math.max(0, index - window);
    other <= Math.min(lines.length - 1, index + window);
    other++
  ) {
    if (other === index) continue;
    const candidate = lines[other] as string;
    if (candidate.length > line.length && candidate.startsWith(line)) return true;
  }
  return false;
}
