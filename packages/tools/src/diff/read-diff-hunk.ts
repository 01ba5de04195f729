/**
 * Reads one `@@` hunk body of a unified diff, following the header's counts and recounting when
 * they do not match the body (as `git apply --recount` does). Never throws.
 * @module
 */
import type { DiffHunk } from './parsed-diff.js';

/** Reads one hunk body, following the header's counts and recounting when they are wrong. */
export function readHunk(
  lines: string[],
  raw: string[],
  at: number,
  match: RegExpExecArray,
  index: number,
): { hunk: DiffHunk; next: number } {
  const oldLines = match[2] === undefined ? 1 : Number(match[2]);
  const newLines = match[4] === undefined ? 1 : Number(match[4]);
  const body: string[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  let i = at + 1;
  const isBody = (line: string | undefined, j: number): boolean =>
    line !== undefined &&
    !startsFileOrHunk(lines, j) &&
    !(line === '-- ' && /^\d+(\.\d+)+/.test(lines[j + 1] ?? '')) && // a format-patch signature
    (line === '' || ' +-\\'.includes(line[0]!));
  while (i < lines.length && isBody(lines[i], i)) {
    const line = lines[i]!;
    const countsDone = oldSeen >= oldLines && newSeen >= newLines;
    if (line === '') {
      // an empty line is a context line whose space was stripped, unless the hunk ends here
      if (countsDone || !isBody(lines[i + 1], i + 1)) break;
    } else if (countsDone && (line[0] === ' ' || line === '-- ')) {
      // extra context is not part of the hunk; "-- " starts a format-patch signature
      break;
    }
    const kind = line === '' ? ' ' : line[0];
    if (kind === ' ' || kind === '-') oldSeen++;
    if (kind === ' ' || kind === '+') newSeen++;
    body.push(line === '' ? ` ${raw[i]}` : kind === '\\' ? line : raw[i]!);
    i++;
  }
  const recounted = oldSeen !== oldLines || newSeen !== newLines;
  return {
    hunk: {
      index,
      oldStart: Number(match[1]),
      oldLines: oldSeen,
      newStart: Number(match[3]),
      newLines: newSeen,
      section: match[5] ?? '',
      lines: body,
      recounted,
    },
    next: i,
  };
}

/** `line` without one trailing CR. */
export function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** `true` when line `i` starts a file part (`diff --git`, `---` then `+++`) or a hunk (`@@ `). */
export function startsFileOrHunk(lines: string[], i: number): boolean {
  const line = lines[i] ?? '';
  return (
    line.startsWith('diff --git ') ||
    line.startsWith('@@ ') ||
    (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '))
  );
}
