/**
 * Writes the diff apply_diff feeds to GNU patch: names already stripped and re-prefixed with
 * `a/` `b/` (so patch always runs with `-p1`), C-quoted when they hold spaces or other special
 * characters (GNU patch reads quoted names; unquoted names end at the first space), and, when
 * the diff's line endings do not fit the target (an LF diff for a CRLF file, or the reverse),
 * hunk lines given the line ending of the target file's own lines, so the file keeps its endings.
 * @module
 */
import type { DiffHunk, FilePatch } from '../diff/parsed-diff.js';

/** Per-file line-ending facts, from the file's current content. */
export interface LineEndingPlan {
  /** Texts of lines that end with CRLF in the file. */
  crlf: Set<string>;
  /** Texts of lines that end with a bare LF in the file. */
  lf: Set<string>;
  /** `true` when most lines of the file end with CRLF. */
  mostlyCrlf: boolean;
}

/** Builds the {@link LineEndingPlan} of a file's text. */
export function planLineEndings(content: string): LineEndingPlan {
  const crlf = new Set<string>();
  const lf = new Set<string>();
  const lines = content.split('\n');
  lines.pop(); // the text after the last LF has no line ending
  let crlfCount = 0;
  for (const line of lines) {
    if (line.endsWith('\r')) {
      crlf.add(line.slice(0, -1));
      crlfCount++;
    } else lf.add(line);
  }
  return { crlf, lf, mostlyCrlf: crlfCount > lines.length / 2 };
}

/**
 * Serialises parsed file patches for `patch -p1`.
 * @param plans line-ending plan per file patch (same index), `undefined` to keep the diff's own endings
 */
export function formatPatchInput(
  files: readonly FilePatch[],
  plans: readonly (LineEndingPlan | undefined)[],
): string {
  const out: string[] = [];
  files.forEach((file, n) => {
    const oldName = file.oldPath ?? file.newPath!;
    const newName = file.newPath ?? file.oldPath!;
    if (file.git) {
      out.push(`diff --git ${quotePatchName(`a/${oldName}`)} ${quotePatchName(`b/${newName}`)}`);
      out.push(...file.extendedHeaders);
      if (file.status === 'renamed' || file.status === 'copied') {
        const verb = file.status === 'renamed' ? 'rename' : 'copy';
        out.push(`${verb} from ${quotePatchName(oldName)}`, `${verb} to ${quotePatchName(newName)}`);
      }
    }
    if (file.hunks.length === 0 && file.git) return;
    out.push(`--- ${file.oldPath === null ? '/dev/null' : quotePatchName(`a/${file.oldPath}`)}`);
    out.push(`+++ ${file.newPath === null ? '/dev/null' : quotePatchName(`b/${file.newPath}`)}`);
    const plan = plans[n];
    const keepEndings = plan === undefined || diffMatchesEndings(file, plan);
    for (const hunk of file.hunks) out.push(...formatHunk(hunk, keepEndings ? undefined : plan));
  });
  return `${out.join('\n')}\n`;
}

/**
 * `true` when the diff's own line endings already fit the file: its old-side lines carry CR
 * exactly when the file has CRLF lines. Such a diff was made against the real bytes and is kept
 * as it is (so a diff that deliberately converts line endings still does).
 */
function diffMatchesEndings(file: FilePatch, plan: LineEndingPlan): boolean {
  const oldSide = file.hunks.flatMap((hunk) =>
    hunk.lines.filter((line) => line[0] === ' ' || line[0] === '-'),
  );
  const diffHasCr = oldSide.some((line) => line.endsWith('\r'));
  const fileHasCr = plan.crlf.size > 0;
  return oldSide.length > 0 && diffHasCr === fileHasCr;
}

function formatHunk(hunk: DiffHunk, plan: LineEndingPlan | undefined): string[] {
  const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@${hunk.section ? ` ${hunk.section}` : ''}`;
  if (!plan) return [header, ...hunk.lines];
  const out = [header];
  let previousCr = plan.mostlyCrlf;
  hunk.lines.forEach((line, i) => {
    if (line.startsWith('\\')) {
      out.push(line);
      return;
    }
    const text = line.endsWith('\r') ? line.slice(1, -1) : line.slice(1);
    const beforeMarker = hunk.lines[i + 1]?.startsWith('\\') === true;
    let cr = previousCr;
    if (line[0] !== '+') {
      const inCrlf = plan.crlf.has(text);
      const inLf = plan.lf.has(text);
      cr = inCrlf && inLf ? plan.mostlyCrlf : inCrlf ? true : inLf ? false : plan.mostlyCrlf;
      previousCr = cr;
    }
    out.push(`${line[0]}${text}${cr && !beforeMarker ? '\r' : ''}`);
  });
  return out;
}

const plainName = /^[A-Za-z0-9._\-/+@,=~%:^]+$/;

/** C-quotes a name for GNU patch when it holds anything but plain characters. */
export function quotePatchName(name: string): string {
  if (plainName.test(name)) return name;
  let quoted = '"';
  for (const char of name) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') quoted += `\\${char}`;
    else if (char === '\n') quoted += '\\n';
    else if (char === '\t') quoted += '\\t';
    else if (code < 0x20 || code === 0x7f) quoted += `\\${code.toString(8).padStart(3, '0')}`;
    else quoted += char;
  }
  return `${quoted}"`;
}
