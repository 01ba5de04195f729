/**
 * Parser for unified diffs (POSIX `diff -u`, GNU diffutils "Unified Format") and git's extended
 * form (git-diff(1) "Generating patch text with -p": `diff --git`, `new file mode`,
 * `rename from`, C-quoted names). It reads what GNU `patch` would read, so apply_diff can check
 * every target path before patch runs, and recounts hunks whose `@@` counts do not match
 * their body (as `git apply --recount` does). Never throws.
 * @module
 */
import { headerName, splitGitHeaderNames, stripPath } from './diff-header-names.js';
import type { DiffFileStatus, DiffHunk, FilePatch, ParsedDiff } from './parsed-diff.js';
import { readHunk, withoutCr } from './read-diff-hunk.js';
import { unquoteGitPath } from './unquote-git-path.js';

/** Options of {@link parseUnifiedDiff}. */
export interface ParseUnifiedDiffOptions {
  /**
   * Leading path components to strip from every name (patch's `-p`). Absent: 1 when every name
   * is git-style (`a/…` on the old side, `b/…` on the new side, or a `diff --git` part), else 0.
   */
  stripLevel?: number;
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;
const keptExtendedHeader =
  /^(new file mode|deleted file mode|old mode|new mode|similarity index|dissimilarity index|index) /;

interface RawFile {
  git: boolean;
  gitNames: [string, string] | undefined;
  oldName: string | undefined;
  newName: string | undefined;
  renameFrom: string | undefined;
  renameTo: string | undefined;
  copy: boolean;
  newFile: boolean;
  deletedFile: boolean;
  extendedHeaders: string[];
  binary: boolean;
  hunks: DiffHunk[];
}

/** Parses a whole diff. See the module doc. Never throws. */
export function parseUnifiedDiff(text: string, options: ParseUnifiedDiffOptions = {}): ParsedDiff {
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  const lines = raw.map(withoutCr);
  const raws: RawFile[] = [];
  const errors: string[] = [];
  let current: RawFile | undefined;
  const start = (git: boolean): RawFile => {
    current = {
      git,
      gitNames: undefined,
      oldName: undefined,
      newName: undefined,
      renameFrom: undefined,
      renameTo: undefined,
      copy: false,
      newFile: false,
      deletedFile: false,
      extendedHeaders: [],
      binary: false,
      hunks: [],
    };
    raws.push(current);
    return current;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      start(true).gitNames = splitGitHeaderNames(line.slice('diff --git '.length));
      i++;
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const file =
        current?.git && current.oldName === undefined && current.hunks.length === 0 ? current : start(false);
      file.oldName = headerName(line.slice(4));
      file.newName = headerName(lines[i + 1]!.slice(4));
      i += 2;
      continue;
    }
    const hunk = hunkHeader.exec(line);
    if (hunk && current) {
      const parsed = readHunk(lines, raw, i, hunk, current.hunks.length + 1);
      current.hunks.push(parsed.hunk);
      i = parsed.next;
      continue;
    }
    if (current?.git && current.hunks.length === 0) readExtendedHeader(current, line);
    i++;
  }
  const strip = options.stripLevel ?? detectStripLevel(raws);
  const files: FilePatch[] = [];
  raws.forEach((raw, n) => {
    const file = toFilePatch(raw, strip);
    if (typeof file === 'string') errors.push(`file ${n + 1} of the diff: ${file}`);
    else files.push(file);
  });
  if (files.length === 0 && errors.length === 0) {
    errors.push(
      'no file headers found: a unified diff needs "--- a/path" and "+++ b/path" lines before each "@@" hunk',
    );
  }
  return { files, errors };
}

function readExtendedHeader(file: RawFile, line: string): void {
  if (line.startsWith('rename from ') || line.startsWith('copy from ')) {
    file.renameFrom = unquoteGitPath(line.slice(line.indexOf(' from ') + 6));
    file.copy = line.startsWith('copy');
  } else if (line.startsWith('rename to ') || line.startsWith('copy to ')) {
    file.renameTo = unquoteGitPath(line.slice(line.indexOf(' to ') + 4));
  } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
    file.binary = true;
  } else if (keptExtendedHeader.test(line)) {
    if (line.startsWith('new file mode')) file.newFile = true;
    if (line.startsWith('deleted file mode')) file.deletedFile = true;
    file.extendedHeaders.push(line);
  }
}

function detectStripLevel(raws: RawFile[]): number {
  const gitStyle = raws.every((raw) => {
    const oldName = raw.oldName ?? raw.gitNames?.[0];
    const newName = raw.newName ?? raw.gitNames?.[1];
    const oldOk = oldName === undefined || oldName === '/dev/null' || oldName.startsWith('a/');
    const newOk = newName === undefined || newName === '/dev/null' || newName.startsWith('b/');
    return oldOk && newOk;
  });
  return gitStyle && raws.length > 0 ? 1 : 0;
}

function toFilePatch(raw: RawFile, strip: number): FilePatch | string {
  const named = (name: string | undefined, gitName: string | undefined): string | null | undefined => {
    const chosen = name ?? gitName;
    if (chosen === undefined) return undefined;
    if (chosen === '/dev/null') return null;
    return stripPath(chosen, strip);
  };
  // rename/copy lines carry names without the a/ b/ prefix
  let oldPath = raw.renameFrom ?? named(raw.oldName, raw.gitNames?.[0]);
  let newPath = raw.renameTo ?? named(raw.newName, raw.gitNames?.[1]);
  if (raw.newFile) oldPath = null;
  if (raw.deletedFile) newPath = null;
  if (oldPath === undefined || newPath === undefined) {
    return `cannot read the file names (header "${raw.oldName ?? raw.gitNames?.[0] ?? '?'}"); with stripLevel ${strip} a name has too few "/" components`;
  }
  if (oldPath === null && newPath === null) return 'both names are /dev/null';
  const status: DiffFileStatus =
    oldPath === null
      ? 'added'
      : newPath === null
        ? 'deleted'
        : raw.copy
          ? 'copied'
          : oldPath !== newPath
            ? 'renamed'
            : 'modified';
  return {
    oldPath,
    newPath,
    status,
    git: raw.git,
    extendedHeaders: raw.extendedHeaders,
    binary: raw.binary,
    hunks: raw.hunks,
  };
}
