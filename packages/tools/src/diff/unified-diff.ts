/**
 * A unified diff of one file's change, computed with the `diff` package (jsdiff) on a window
 * around the changed bytes only, so an edit in a 10 MB file diffs a few lines, not the file.
 * @module
 */
import { structuredPatch } from 'diff';

const decoder = new TextDecoder('utf-8');

/**
 * The unified diff (`--- a/path`, `+++ b/path`, `@@` hunks with `context` lines) turning `before`
 * into `after`; bytes are shown as UTF-8 (invalid bytes as U+FFFD). Empty when they are equal.
 */
export function unifiedDiff(path: string, before: Uint8Array, after: Uint8Array, context = 3): string {
  const prefix = commonPrefix(before, after);
  if (prefix === before.length && prefix === after.length) return '';
  const suffix = commonSuffix(before, after, prefix);
  // Window: whole lines from `context` lines above the first change to `context` lines below the last.
  const start = linesBack(before, prefix, context);
  const oldEnd = linesForward(before, before.length - suffix, context);
  const newEnd = after.length - (before.length - oldEnd);
  const firstLine = countNewlines(before, start) + 1;
  const patch = structuredPatch(
    path,
    path,
    decoder.decode(before.subarray(start, oldEnd)),
    decoder.decode(after.subarray(start, newEnd)),
    undefined,
    undefined,
    { context },
  );
  const lines = [`--- a/${path}`, `+++ b/${path}`];
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldStart + firstLine - 1;
    const newStart = hunk.newStart + firstLine - 1;
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return `${lines.join('\n')}\n`;
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: Uint8Array, b: Uint8Array, prefix: number): number {
  const length = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i < length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** Start of the line `count` lines above the one holding byte `index`. */
function linesBack(bytes: Uint8Array, index: number, count: number): number {
  let start = index > 0 ? bytes.lastIndexOf(0x0a, index - 1) + 1 : 0;
  for (let n = 0; n < count && start > 0; n++)
    start = start >= 2 ? bytes.lastIndexOf(0x0a, start - 2) + 1 : 0;
  return start;
}

/** End (after its `\n`) of the line `count` lines below the one that byte `index - 1` ends. */
function linesForward(bytes: Uint8Array, index: number, count: number): number {
  let end = index;
  if (end > 0 && bytes[end - 1] !== 0x0a) {
    const newline = bytes.indexOf(0x0a, end);
    end = newline === -1 ? bytes.length : newline + 1;
  }
  for (let n = 0; n < count && end < bytes.length; n++) {
    const newline = bytes.indexOf(0x0a, end);
    end = newline === -1 ? bytes.length : newline + 1;
  }
  return end;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}
