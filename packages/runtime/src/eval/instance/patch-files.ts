/**
 * Splits a unified diff (git's extended format or plain `---`/`+++`) into one section per file,
 * with the file names as real UTF-8 strings: git's C-quoted names (`"caf\303\251.txt"`,
 * `"say \"hi\".txt"`) are unquoted, `a/` / `b/` prefixes removed.
 * @module
 */
import { unquoteGitPath } from '@sandkit/tools';

/** One file's part of a patch. */
export interface PatchFileSection {
  /** Path before the change, `null` for a new file (`/dev/null`). */
  oldPath: string | null;
  /** Path after the change, `null` for a deleted file. */
  newPath: string | null;
  /** The section's text, from its first header line to the line before the next section. */
  text: string;
  /** A binary change with no data to apply (`Binary files a/x and b/x differ`, no `GIT binary patch`). */
  binaryWithoutData: boolean;
}

/** A patch split into file sections. */
export interface SplitPatch {
  /** Text before the first section (a commit message, `From …` lines); not applied. */
  preamble: string;
  files: PatchFileSection[];
}

/** Splits `patch` into file sections. Never throws; text that is not a diff yields no sections. */
export function splitPatch(patch: string): SplitPatch {
  const lines = patch.split(/(?<=\n)/);
  const gitStyle = lines.some((line) => line.startsWith('diff --git '));
  const starts: number[] = [];
  lines.forEach((line, index) => {
    if (gitStyle ? line.startsWith('diff --git ') : isPlainStart(lines, index)) starts.push(index);
  });
  const files = starts.map((start, i) =>
    parseSection(lines.slice(start, starts[i + 1] ?? lines.length).join('')),
  );
  return { preamble: lines.slice(0, starts[0] ?? lines.length).join(''), files };
}

/** The real UTF-8 path of each file the patch touches (the new path, or the old one for a deletion). */
export function patchPaths(files: readonly PatchFileSection[]): string[] {
  return files.map((file) => file.newPath ?? file.oldPath).filter((path): path is string => path !== null);
}

function isPlainStart(lines: readonly string[], index: number): boolean {
  return lines[index]!.startsWith('--- ') && (lines[index + 1]?.startsWith('+++ ') ?? false);
}

function parseSection(text: string): PatchFileSection {
  let oldPath: string | null | undefined;
  let newPath: string | null | undefined;
  let binaryLine = false;
  let binaryData = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('@@')) break;
    if (line.startsWith('--- ')) oldPath = headerPath(line.slice(4));
    else if (line.startsWith('+++ ')) newPath = headerPath(line.slice(4));
    else if (line.startsWith('rename from ')) oldPath = unquoteGitPath(line.slice(12));
    else if (line.startsWith('rename to ')) newPath = unquoteGitPath(line.slice(10));
    else if (line === 'GIT binary patch') binaryData = true;
    else if (/^Binary files .* differ$/.test(line)) binaryLine = true;
  }
  if (oldPath === undefined || newPath === undefined) {
    const [a, b] = gitHeaderPaths(text.slice(0, text.indexOf('\n') >>> 0));
    if (oldPath === undefined) oldPath = /^new file mode/m.test(text) ? null : a;
    if (newPath === undefined) newPath = /^deleted file mode/m.test(text) ? null : b;
  }
  return { oldPath, newPath, text, binaryWithoutData: binaryLine && !binaryData };
}

/** `a/path\t2024-01-01 …` → `path`; `/dev/null` → null. */
function headerPath(field: string): string | null {
  const value = field.startsWith('"')
    ? unquoteGitPath(field.slice(0, closingQuote(field) + 1))
    : field.split('\t')[0]!;
  if (value === '/dev/null') return null;
  return stripPrefix(value);
}

/** The two paths of `diff --git a/x b/x`, either of them possibly C-quoted. */
function gitHeaderPaths(header: string): [string | null, string | null] {
  const rest = header.replace(/^diff --git /, '').replace(/\r$/, '');
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = unquoteGitPath(rest.slice(0, end + 1));
    const second = rest.slice(end + 2);
    return [stripPrefix(first), stripPrefix(second.startsWith('"') ? unquoteGitPath(second) : second)];
  }
  const quoted = rest.indexOf(' "');
  if (quoted >= 0)
    return [stripPrefix(rest.slice(0, quoted)), stripPrefix(unquoteGitPath(rest.slice(quoted + 1)))];
  // `a/P b/P`: both halves are equal for anything but a rename, which has its own lines.
  const half = (rest.length - 1) / 2;
  return [stripPrefix(rest.slice(0, half)), stripPrefix(rest.slice(half + 1))];
}

function stripPrefix(path: string): string {
  return path.replace(/^[ab]\//, '');
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
