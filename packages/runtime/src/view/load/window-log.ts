/**
 * Cuts a test log to what a report embeds: the whole log when it is small, else a window at its
 * head, one around each deciding line and one at its tail, merged where they touch. Long lines are
 * cut (a minified bundle printed on one line stays readable). Budgets keep a 500-instance eval's
 * report under 20 MB (issue #25): {@link logWindowLimits}.
 * @module
 */
import type { ViewLog, ViewLogWindow } from '../model/view-data.js';

/** What one instance's log may take in the report. */
export const logWindowLimits = {
  /** A log of at most this many bytes is embedded whole. */
  wholeBytes: 16 * 1024,
  /** Lines kept at the head and at the tail of a cut log. */
  headLines: 20,
  tailLines: 40,
  /** Lines kept on each side of a deciding line. */
  contextLines: 4,
  /** Lines embedded at most for a cut log; windows past it are dropped, the tail kept. */
  maxLines: 600,
  /** Characters kept of one line. */
  maxLineChars: 2000,
} as const;

const cutLine = (line: string): string =>
  line.length <= logWindowLimits.maxLineChars
    ? line
    : `${line.slice(0, logWindowLimits.maxLineChars)} … (${line.length - logWindowLimits.maxLineChars} more characters)`;

/**
 * The windows of a log.
 * @param lines the whole log's lines
 * @param totalBytes the whole log's size in bytes
 * @param deciding 1-based numbers of the lines to keep in view
 * @param href the whole log's path relative to the report, or `null`
 */
export function windowLog(
  lines: readonly string[],
  totalBytes: number,
  deciding: Iterable<number>,
  href: string | null,
): ViewLog {
  const n = lines.length;
  if (totalBytes <= logWindowLimits.wholeBytes)
    return {
      totalLines: n,
      totalBytes,
      whole: true,
      href,
      windows: n === 0 ? [] : [{ startLine: 1, lines: lines.map(cutLine) }],
    };
  const { headLines, tailLines, contextLines, maxLines } = logWindowLimits;
  // ranges as [first, last] 0-based inclusive: head, each deciding line, tail (tail kept within budget)
  const ranges: Array<[number, number]> = [[0, Math.min(n, headLines) - 1]];
  let budget = maxLines - headLines - tailLines;
  for (const line of [...new Set(deciding)].sort((a, b) => a - b)) {
    const first = Math.max(0, line - 1 - contextLines);
    const last = Math.min(n - 1, line - 1 + contextLines);
    if (budget < last - first + 1) break;
    budget -= last - first + 1;
    ranges.push([first, last]);
  }
  ranges.push([Math.max(0, n - tailLines), n - 1]);
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && range[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  const windows: ViewLogWindow[] = merged.map(([first, last]) => ({
    startLine: first + 1,
    lines: lines.slice(first, last + 1).map(cutLine),
  }));
  const whole = merged.length === 1 && merged[0]?.[0] === 0 && merged[0]?.[1] === n - 1;
  return { totalLines: n, totalBytes, whole, href, windows };
}
