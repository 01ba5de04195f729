/**
 * `mergedDjangoLines`: for each of some test ids, the first line of a log that holds it between two
 * ` ... ` separators and does not start with it: where a Django test that left its ` ... ` open
 * (an erroring subtest prints its result later) has the next test printed on its line, so
 * `parse_log_django` reads the whole line as one id (see `official-test-lists.ts`).
 *
 * One pass over the log for all the ids, instead of one split of the whole log per id (a 1 MB log
 * with 2,000 such ids took 18 s that way). Lines end at `\n`, `\r\n` or a lone `\r`, as Python's
 * text mode reads them. The log is searched as it is, text or UTF-8 bytes: the separators and the
 * line ends are ASCII, so a cut at them never splits a character, and only the lines that hold a
 * match are decoded.
 * @module
 */

const separator = ' ... ';

/**
 * The first line (trimmed) of `log` per id of `ids` that includes `` ` ... ${id} ... ` `` and does
 * not start with `` `${id} ... ` ``; ids with no such line are absent. Pure; linear in the log's
 * length, times the separators that fit in the longest id's length on a line.
 */
export function mergedDjangoLines(log: string | Buffer, ids: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  if (ids.size === 0) return found;
  const bytes = typeof log !== 'string';
  let longest = 0;
  for (const id of ids) longest = Math.max(longest, bytes ? Buffer.byteLength(id) : id.length);
  const text = (from: number, to: number): string =>
    typeof log === 'string' ? log.slice(from, to) : log.toString('utf8', from, to);
  const lineFeed = new NextIndex(log, '\n');
  const carriageReturn = new NextIndex(log, '\r');
  let at = log.indexOf(separator);
  while (at >= 0 && found.size < ids.size) {
    // The line holding `at`, and every separator on it (overlapping ones too: ` ... ... `).
    const start = Math.max(lineFeed.before(at), carriageReturn.before(at)) + 1;
    const end = Math.min(lineFeed.after(at), carriageReturn.after(at));
    const onLine: number[] = [];
    for (; at >= 0 && at < end; at = log.indexOf(separator, at + 1)) onLine.push(at);
    if (onLine.length < 2) continue;
    let line: string | undefined;
    for (let a = 0; a < onLine.length - 1; a++) {
      const from = (onLine[a] as number) + separator.length;
      for (let b = a + 1; b < onLine.length; b++) {
        const to = onLine[b] as number;
        if (to < from) continue; // overlaps the first separator
        if (to - from > longest) break;
        const id = text(from, to);
        if (!ids.has(id) || found.has(id)) continue;
        line ??= text(start, end);
        if (!line.startsWith(`${id}${separator}`)) found.set(id, line.trim());
      }
    }
  }
  return found;
}

/**
 * The positions of one character in a log, read forward once: the last one before a position and
 * the first one at or after it, for positions that never decrease.
 */
class NextIndex {
  private previous = -1;
  private next: number;

  constructor(
    private readonly log: string | Buffer,
    private readonly char: string,
  ) {
    this.next = this.find(0);
  }

  /** The last position before `at` (-1 when none). */
  before(at: number): number {
    this.advance(at);
    return this.previous;
  }

  /** The first position at or after `at` (the log's length when none). */
  after(at: number): number {
    this.advance(at);
    return this.next;
  }

  private advance(at: number): void {
    while (this.next < at) {
      this.previous = this.next;
      this.next = this.find(this.next + 1);
    }
  }

  private find(from: number): number {
    const index = this.log.indexOf(this.char, from);
    return index < 0 ? this.log.length : index;
  }
}
