/**
 * Turns GNU patch's dry-run report into apply_diff's verdict: the conflicts that make the call
 * fail (with a reason the model can act on), and the offsets and fuzz of hunks that applied
 * elsewhere than their header said, refusing any such hunk that fits in more than one place.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import type { DiffHunk, FilePatch } from '../diff/parsed-diff.js';
import type { InspectedPath, ResolvedPath } from '../workspace/resolve-path.js';
import { describeHunkFailure, fileLines, hunkPositions } from './diagnose-hunk.js';
import type { PatchFileReport } from './parse-patch-output.js';
import type { PatchRun } from './run-patch.js';

/** One file of the diff with its resolved paths and current content. */
export interface PatchTarget {
  file: FilePatch;
  /** With what was there when the call started (symlinks followed). */
  old: InspectedPath | undefined;
  new: ResolvedPath | undefined;
  /** Text of the old file, `undefined` when it does not exist (or the file is new). */
  content?: string | undefined;
}

/** A hunk that did not apply where its header said. */
export interface HunkOffset {
  path: string;
  hunk: number;
  line: number;
  offset: number;
  fuzz: number;
}

/** What {@link checkPatchReports} accepted. */
export interface CheckedPatch {
  offsets: HunkOffset[];
  fuzzUsed: number;
  notes: string[];
}

interface Conflict {
  path: string;
  hunk: number;
  reason: string;
}

/**
 * Checks a dry run's reports against the targets.
 * @throws ToolError `invalid_patch` when patch rejected the input (exit 2), `patch_failed` with
 *   `details.conflicts` when any hunk failed or a shifted/fuzzy hunk is ambiguous, or when patch
 *   names a file that is not one of the checked targets.
 */
export function checkPatchReports(
  targets: readonly PatchTarget[],
  reports: readonly PatchFileReport[],
  dry: PatchRun,
  fuzz: number,
): CheckedPatch {
  if (dry.exitCode !== 0 && dry.exitCode !== 1) {
    throw new ToolError({
      code: SandkitErrorCode.invalidPatch,
      message: `patch could not read the diff (exit ${dry.exitCode}): ${dry.output.trim().split('\n').slice(-3).join(' ')}; check the --- / +++ / @@ lines`,
      details: { output: dry.output },
    });
  }
  const unmatched = [...targets];
  const conflicts: Conflict[] = [];
  const offsets: HunkOffset[] = [];
  const notes: string[] = [];
  for (const report of reports) {
    const index =
      report.path === undefined
        ? -1
        : unmatched.findIndex((t) => t.file.newPath === report.path || t.file.oldPath === report.path);
    if (
      report.path !== undefined &&
      index < 0 &&
      !targets.some((t) => t.file.newPath === report.path || t.file.oldPath === report.path)
    ) {
      throw new ToolError({
        code: SandkitErrorCode.patchFailed,
        message: `patch wanted to change "${report.path}", which is not a file named in the diff's headers; nothing was changed`,
        details: { path: report.path },
      });
    }
    const target = index >= 0 ? unmatched.splice(index, 1)[0] : undefined;
    const name = target ? (target.new ?? target.old)!.relative : (report.path ?? '(unknown file)');
    const lines = target?.content === undefined ? [] : fileLines(target.content);
    for (const notice of report.notices)
      conflicts.push({ path: name, hunk: 0, reason: explainNotice(notice) });
    for (const hunkReport of report.hunks) {
      const hunk = target?.file.hunks[hunkReport.hunk - 1];
      if (hunkReport.outcome === 'ignored') {
        if (report.notices.length === 0)
          conflicts.push({ path: name, hunk: hunkReport.hunk, reason: 'skipped by patch' });
        continue;
      }
      if (hunkReport.outcome === 'failed') {
        const why = hunk
          ? describeHunkFailure(lines, hunk, name, target?.file.hunks.slice(0, hunkReport.hunk - 1))
          : 'context not found';
        const endings = hunkReport.note === undefined ? '' : ` (${hunkReport.note})`;
        conflicts.push({
          path: name,
          hunk: hunkReport.hunk,
          reason: `${header(hunk)}context not found${endings}; ${why}`,
        });
        continue;
      }
      const positions = hunk ? hunkPositions(lines, hunk, hunkReport.fuzz) : [];
      if (positions.length > 1) {
        const shown = positions.length > 5 ? `${positions.slice(0, 5).join(', ')}, …` : positions.join(', ');
        conflicts.push({
          path: name,
          hunk: hunkReport.hunk,
          reason: `${header(hunk)}fits at ${positions.length} places (lines ${shown})${hunkReport.fuzz > 0 ? ` with fuzz ${hunkReport.fuzz}` : ''} and its header line is off by ${hunkReport.offset}, so where it belongs is ambiguous; add context lines that occur only once, or fix the @@ line numbers`,
        });
        continue;
      }
      offsets.push({
        path: name,
        hunk: hunkReport.hunk,
        line: hunkReport.line,
        offset: hunkReport.offset,
        fuzz: hunkReport.fuzz,
      });
      if (hunkReport.fuzz > 0) {
        notes.push(
          `${name}: hunk ${hunkReport.hunk} applied at line ${hunkReport.line} with fuzz ${hunkReport.fuzz} (up to ${hunkReport.fuzz} context lines at each end did not match); check the result with read_file`,
        );
      }
    }
  }
  if (dry.exitCode === 1 && conflicts.length === 0) {
    conflicts.push({ path: '(diff)', hunk: 0, reason: dry.output.trim().split('\n').slice(-3).join(' ') });
  }
  if (conflicts.length > 0) {
    const lines = conflicts.map((c) => `${c.path}: ${c.hunk > 0 ? `hunk ${c.hunk} ` : ''}${c.reason}`);
    throw new ToolError({
      code: SandkitErrorCode.patchFailed,
      message: `the diff does not apply and nothing was changed (fuzz ${fuzz}):\n${lines.join('\n')}\nFix each failing hunk as its line says; read_file shows the file's exact current text.`,
      details: { conflicts },
    });
  }
  return { offsets, fuzzUsed: Math.max(0, ...offsets.map((o) => o.fuzz)), notes };
}

function header(hunk: DiffHunk | undefined): string {
  return hunk ? `(@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@) ` : '';
}

function explainNotice(notice: string): string {
  if (notice.startsWith('Reversed'))
    return 'the diff looks already applied (its new text is present) or reversed; re-read the file';
  if (notice.startsWith('The next patch would'))
    return 'a file the diff creates already exists; diff against its current content instead';
  if (notice.startsWith("can't find file"))
    return 'the file to patch does not exist; check the path and stripLevel';
  return notice;
}
