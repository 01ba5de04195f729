/**
 * How many leading items of a page fit in a result of `maxBytes` UTF-8 bytes of JSON (with 512
 * bytes left for the result's other fields). At least one item is always taken, so a page never
 * comes back empty while items remain.
 * @param items the page's items, at most the requested limit
 * @param maxBytes the tool's `maxOutputBytes`
 */
export function takeWithinBytes(items: readonly unknown[], maxBytes: number): number {
  const budget = maxBytes - 512;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (i > 0 && bytes > budget) return i;
  }
  return items.length;
}
