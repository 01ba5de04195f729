/**
 * Makes GNU patch apply what `git apply` applies. git places a hunk wherever its whole old side
 * (context and removed lines) matches the file exactly; GNU patch at fuzz 0 also reads a hunk whose
 * leading and trailing context differ in length as anchored at the start (shorter leading context)
 * or end (shorter trailing context) of the file, and refuses it anywhere else. Model-written diffs
 * often have that shape. A hunk whose old side matches the file exactly at exactly one line is not
 * fuzz: it is rewritten for patch with the longer context side trimmed to the shorter one's length
 * and its header moved to that line, so patch puts it where git would. Every other hunk is left as
 * it is, so a real mismatch is still refused.
 *
 * A trimmed hunk left with no old lines (a pure insertion: `+a` then context, or context then `+d`)
 * takes the unified-diff form of an insertion, whose old start is the line the new lines go
 * *after* (`@@ -0,0 +1 @@` inserts before line 1; GNU diffutils writes it so, and patch reads it so:
 * `-1,0` puts the lines after line 1). Giving it the first context line's number put every such
 * insertion one line too low, with `exact: true`.
 * @module
 */
import type { DiffHunk } from '../diff/parsed-diff.js';
import { contextCounts, hunkPositions } from './diagnose-hunk.js';

/** A hunk rewritten by {@link alignHunkContext}, and the line its old side matched at. */
export interface AlignedHunk {
  hunk: DiffHunk;
  /** 1-based line of the file where the whole old side matched. */
  matchedAt: number;
}

/**
 * The hunk with symmetric context, anchored at the one line where its whole old side matches
 * `lines` exactly; `undefined` when its context is already symmetric, when it matches at no line
 * or at several, or when a `\ No newline` marker sits in the trailing context to trim.
 * @param lines the file's lines without line endings (diagnose-hunk's `fileLines`)
 */
export function alignHunkContext(hunk: DiffHunk, lines: readonly string[]): AlignedHunk | undefined {
  const { leading, trailing } = contextCounts(hunk);
  if (leading === trailing) return undefined;
  const positions = hunkPositions(lines, hunk, 0);
  if (positions.length !== 1) return undefined;
  const matchedAt = positions[0]!;
  if (leading > trailing) {
    const cut = leading - trailing;
    const oldLines = hunk.oldLines - cut;
    return {
      matchedAt,
      hunk: {
        ...hunk,
        lines: hunk.lines.slice(cut),
        oldStart: matchedAt + cut - (oldLines === 0 ? 1 : 0),
        oldLines,
        newStart: hunk.newStart + (matchedAt + cut - hunk.oldStart),
        newLines: hunk.newLines - cut,
      },
    };
  }
  const cut = trailing - leading;
  const lastChange = hunk.lines.findLastIndex((line) => line[0] === '-' || line[0] === '+');
  if (hunk.lines.slice(lastChange + 1).some((line) => line.startsWith('\\'))) return undefined;
  const oldLines = hunk.oldLines - cut;
  return {
    matchedAt,
    hunk: {
      ...hunk,
      lines: hunk.lines.slice(0, hunk.lines.length - cut),
      oldStart: oldLines === 0 ? matchedAt - 1 : matchedAt,
      oldLines,
      newStart: hunk.newStart + (matchedAt - hunk.oldStart),
      newLines: hunk.newLines - cut,
    },
  };
}
