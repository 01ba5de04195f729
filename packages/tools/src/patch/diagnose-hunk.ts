/**
 * Explains, from the target file's text, why a hunk did not apply, and finds every position where
 * a hunk fits (to refuse a fuzzy or shifted hunk that fits in more than one place).
 * @module
 */
import type { DiffHunk } from '../diff/parsed-diff.js';

const shownChars = 120;

/** The old-side lines of a hunk (context and removed lines), without prefix or CR. */
export function oldSide(hunk: DiffHunk): string[] {
  return hunk.lines.filter((line) => line[0] === ' ' || line[0] === '-').map(bodyText);
}

/** The lines of a file's text, without line endings. */
export function fileLines(content: string): string[] {
  const lines = content.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Why `hunk` does not fit `lines` (the file, split by {@link fileLines}): the first expected line
 * found nowhere in the file, and the closest block with its first differing line; for a hunk that
 * fits exactly, why patch still refused it.
 * @param earlier the hunks before it in the diff for the same file, in the diff's order (patch
 *   applies them in that order and never looks above where the previous one applied)
 */
export function describeHunkFailure(
  lines: readonly string[],
  hunk: DiffHunk,
  path: string,
  earlier: readonly DiffHunk[] = [],
): string {
  const expected = oldSide(hunk);
  const exact = expected.length > 0 ? hunkPositions(lines, hunk, 0) : [];
  if (exact.length > 0) return describeExactMatch(hunk, exact, earlier);
  const present = new Set(lines);
  const missing = expected.find((line) => !present.has(line));
  const parts: string[] = [];
  parts.push(
    missing === undefined
      ? 'every line of its context exists in the file, but not as one consecutive block'
      : `\`${show(missing)}\` does not match any line of ${path}`,
  );
  const best = closestBlocks(lines, expected, hunk.oldStart);
  const first = best[0];
  if (first !== undefined && first.equal > 0) {
    const differing = expected.findIndex((line, i) => lines[first.start + i] !== line);
    const at = first.start + differing;
    const starts = best.map((block) => block.start + 1).join(', ');
    parts.push(
      `closest ${best.length > 1 ? `blocks start at lines ${starts}` : `block starts at line ${starts}`} (${first.equal} of ${expected.length} lines equal)` +
        (differing >= 0
          ? `; line ${at + 1} is ${at < lines.length ? `\`${show(lines[at]!)}\`` : 'past the end of the file'} where the hunk expects \`${show(expected[differing]!)}\``
          : ''),
    );
  }
  return parts.join('; ');
}

/** Leading and trailing context line counts of a hunk (`\\` markers not counted). */
export function contextCounts(hunk: DiffHunk): { leading: number; trailing: number } {
  const body = hunk.lines.filter((line) => !line.startsWith('\\'));
  let leading = 0;
  while (leading < body.length && body[leading]![0] === ' ') leading++;
  let trailing = 0;
  while (trailing < body.length - leading && body[body.length - 1 - trailing]![0] === ' ') trailing++;
  return { leading, trailing };
}

/**
 * Why a hunk whose old side matches the file exactly was still refused: it matches at several
 * places and its context is anchored (shorter on one side), or patch refused it for another reason.
 * Never claims a mismatch, since there is none.
 */
function describeExactMatch(
  hunk: DiffHunk,
  positions: readonly number[],
  earlier: readonly DiffHunk[],
): string {
  const { leading, trailing } = contextCounts(hunk);
  const shown = positions.length > 5 ? `${positions.slice(0, 5).join(', ')}, …` : positions.join(', ');
  const where = `its old side matches the file exactly at ${positions.length === 1 ? `line ${shown}` : `${positions.length} places (lines ${shown})`}`;
  const last = Math.max(...positions);
  const ahead = earlier.findIndex((other) => other.oldStart >= last);
  if (ahead >= 0) {
    const other = earlier[ahead]!;
    return `${where}, at or above hunk ${ahead + 1} (@@ -${other.oldStart},${other.oldLines} @@), which comes before it in the diff; patch applies a file's hunks in the diff's order and never goes back up, so put the hunks in the order of their line numbers, each change once`;
  }
  if (positions.length > 1 && leading !== trailing) {
    return `${where}, so where it belongs is ambiguous (with ${leading} leading and ${trailing} trailing context lines patch anchors it at the ${leading < trailing ? 'start' : 'end'} of the file); add context lines that occur only once, as many before the change as after`;
  }
  if (positions.length > 1) {
    return `${where}, so where it belongs is ambiguous; add context lines that occur only once, or fix the @@ line numbers`;
  }
  return `${where}, yet patch refused it; check its @@ line counts and the lines around it`;
}

/**
 * 1-based lines where the hunk's old side fits exactly after ignoring `fuzz` context lines at each
 * end (GNU patch's fuzz). An empty remaining block fits everywhere and returns every position.
 */
export function hunkPositions(lines: readonly string[], hunk: DiffHunk, fuzz: number): number[] {
  const body = hunk.lines.filter((line) => !line.startsWith('\\'));
  let prefix = 0;
  while (prefix < body.length && body[prefix]![0] === ' ') prefix++;
  let suffix = 0;
  while (suffix < body.length - prefix && body[body.length - 1 - suffix]![0] === ' ') suffix++;
  const kept = body.slice(Math.min(fuzz, prefix), body.length - Math.min(fuzz, suffix));
  const block = kept.filter((line) => line[0] !== '+').map(bodyText);
  const positions: number[] = [];
  for (let start = 0; start + block.length <= lines.length; start++) {
    if (block.every((line, i) => lines[start + i] === line)) positions.push(start + 1);
    if (block.length === 0 && positions.length > 1) break;
  }
  return positions;
}

/** The blocks sharing the most lines with `expected` (at most 3), the one nearest `near` first. */
function closestBlocks(
  lines: readonly string[],
  expected: readonly string[],
  near: number,
): { start: number; equal: number }[] {
  let best: { start: number; equal: number }[] = [];
  const limit = Math.min(lines.length, 200_000);
  for (let start = 0; start < limit; start++) {
    let equal = 0;
    for (let i = 0; i < expected.length; i++) if (lines[start + i] === expected[i]) equal++;
    if (best.length === 0 || equal > best[0]!.equal) best = [{ start, equal }];
    else if (equal === best[0]!.equal) best.push({ start, equal });
  }
  const distance = (block: { start: number }) => Math.abs(block.start + 1 - near);
  return best.sort((x, y) => distance(x) - distance(y) || x.start - y.start).slice(0, 3);
}

function bodyText(line: string): string {
  return line.endsWith('\r') ? line.slice(1, -1) : line.slice(1);
}

function show(line: string): string {
  return line.length > shownChars ? `${line.slice(0, shownChars)}…` : line;
}
