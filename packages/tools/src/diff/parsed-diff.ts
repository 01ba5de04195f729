/**
 * The shapes `parseUnifiedDiff` (parse-unified-diff.ts) returns: a diff, its files, their hunks.
 * They live apart from the parser so the hunk reader and apply_diff use them without importing it.
 * @module
 */

/** One `@@` hunk. */
export interface DiffHunk {
  /** 1-based number of the hunk within its file. */
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Text after the second `@@` (usually a function name), without the leading space. */
  section: string;
  /**
   * Body lines with their prefix (` `, `-`, `+`, `\`) as the diff had them (a CRLF diff keeps its
   * CR; an empty line taken as context becomes `" "`). `\ No newline…` markers have no CR.
   */
  lines: string[];
  /** `true` when the header's counts did not match the body and were recomputed. */
  recounted: boolean;
}

/** The kind of change to one file. */
export type DiffFileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied';

/** One file's part of a diff. */
export interface FilePatch {
  /** Old name after stripping `stripLevel` components; `null` for `/dev/null` (a new file). */
  oldPath: string | null;
  /** New name after stripping; `null` for `/dev/null` (a deleted file). */
  newPath: string | null;
  status: DiffFileStatus;
  /** `true` when the file part began with `diff --git`. */
  git: boolean;
  /** git extended header lines kept for patch (`new file mode 100644`, `similarity index 90%`, …). */
  extendedHeaders: string[];
  /** `true` for `Binary files … differ` or `GIT binary patch` parts (patch cannot apply them). */
  binary: boolean;
  hunks: DiffHunk[];
}

/** What `parseUnifiedDiff` (parse-unified-diff.ts) found. */
export interface ParsedDiff {
  files: FilePatch[];
  /** Problems that make the diff unusable, each saying where and how to fix it. */
  errors: string[];
}
