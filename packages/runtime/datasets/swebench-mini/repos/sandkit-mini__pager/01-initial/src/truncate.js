/** Shortens `text` to at most `max` characters, ending with `ellipsis` when cut. */
export function truncate(text, max, ellipsis = '…') {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - ellipsis.length)) + ellipsis;
}
