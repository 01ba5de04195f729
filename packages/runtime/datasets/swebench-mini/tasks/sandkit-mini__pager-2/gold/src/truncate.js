/**
 * Shortens `text` to at most `max` characters, ending with `ellipsis` when cut.
 * Characters are Unicode code points, so an emoji counts as one and is never split.
 */
export function truncate(text, max, ellipsis = '…') {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const keep = Math.max(0, max - Array.from(ellipsis).length);
  return chars.slice(0, keep).join('') + ellipsis;
}
