/**
 * Parser for unified diffs (POSIX `diff -u`, GNU diffutils "Unified Format") and git's extended
 * form (git-diff(1) "Generating patch text with -p": `diff --git`, `new file mode`,
 * `rename from`, C-quoted names). It reads what GNU `patch` would read, so apply_diff can check
 * every target path before patch runs, and recounts hunks whose `@@` counts do not match
 * their body (as `git apply --recount` does). Never throws.
 * @module
 */
import { unquoteGitPath } from './unquote-git-path.js';

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

/** What {@link parseUnifiedDiff} found. */
export interface ParsedDiff {
  files: FilePatch[];
  /** Problems that make the diff unusable, each saying where and how to fix it. */
  errors: string[];
}

/** Options of {@link parseUnifiedDiff}. */
export interface ParseUnifiedDiffOptions {
  /**
   * Leading path components to strip from every name (patch's `-p`). Absent: 1 when every name
   * is git-style (`a/…` on the old side, `b/…` on the new side, or a `diff --git` part), else 0.
   */
  stripLevel?: number;
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;
const timestamp = /\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( ?[+-]\d{4})?$/;
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

/** Reads one hunk body, following the header's counts and recounting when they are wrong. */
function readHunk(
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

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function startsFileOrHunk(lines: string[], i: number): boolean {
  const line = lines[i] ?? '';
  return (
    line.startsWith('diff --git ') ||
    line.startsWith('@@ ') ||
    (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '))
  );
}

/** The name in a `---`/`+++` line: C-quoted or up to a TAB, without a trailing timestamp. */
function headerName(rest: string): string {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end > 0) return unquoteGitPath(rest.slice(0, end + 1));
  }
  const tab = rest.indexOf('\t');
  const name = tab >= 0 ? rest.slice(0, tab) : rest.replace(timestamp, '');
  return name.replace(/\s+$/, '');
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** Splits the `a/x b/y` of a `diff --git` line (quoted names, or two equal halves with spaces). */
function splitGitHeaderNames(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end < 0) return undefined;
    const second = rest.slice(end + 2);
    return [unquoteGitPath(rest.slice(0, end + 1)), unquoteGitPath(second)];
  }
  const quoted = rest.indexOf(' "');
  if (quoted > 0) return [rest.slice(0, quoted), unquoteGitPath(rest.slice(quoted + 1))];
  // unquoted names may contain spaces: the two halves name the same path when nothing was renamed
  const middle = (rest.length - 1) / 2;
  if (Number.isInteger(middle) && rest[middle] === ' ' && rest.slice(2, middle) === rest.slice(middle + 3)) {
    return [rest.slice(0, middle), rest.slice(middle + 1)];
  }
  const space = rest.indexOf(' b/');
  return space > 0 ? [rest.slice(0, space), rest.slice(space + 1)] : undefined;
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

function stripPath(name: string, strip: number): string | undefined {
  if (strip === 0) return name;
  const parts = name.split('/').filter((part, i) => part !== '' || i === 0);
  if (parts.length <= strip) return undefined;
  return parts.slice(strip).join('/');
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
