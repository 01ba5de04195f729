/**
 * The one rule set search_files, find_files and list_files share for what exists: hidden files
 * count; `.git/` never does; ignore files (`.gitignore` at every depth, `.git/info/exclude`, the
 * user's global excludes file) are honoured inside AND outside a git repository, as git reads them
 * (gitignore(5)). Tracked files matching a rule are skipped too (as ripgrep skips them). `.ignore`
 * and `.rgignore` are not read (git does not know them).
 *
 * The rules are applied by `git check-ignore --no-index` (git's own matcher): in the repository
 * that holds the directory, or, outside any repository, with a throw-away bare repository whose
 * work tree is the workspace root. Skipped paths are reported with the rule that skipped them in
 * git's `-v` form, `SOURCE:LINE:PATTERN`, so a zero result is never silent.
 * @module
 */
import { pinnedGitCommand, quoteShellArgument } from '@sandkit/core';

/** A path left out by an ignore rule, as the tools report it. */
export interface IgnoredPath {
  /** Path relative to the workspace root. */
  path: string;
  /** The rule that skipped it: `SOURCE:LINE:PATTERN` (e.g. `.gitignore:1:build/`). */
  rule: string;
}

/** The `ignored` field of a tool result (see ignored-schema.ts). */
export interface IgnoredSummary {
  /** Paths skipped (a skipped directory counts once per entry below it that was looked at). */
  count: number;
  /** The top-most skipped paths, at most {@link maxIgnoredListed}. */
  paths: IgnoredPath[];
}

/** How many skipped paths a result names at most. */
export const maxIgnoredListed = 20;

/** The ripgrep options that give the shared rule set (with `--no-config`, set by the caller). */
export const rgIgnoreArgs = ['--hidden', '--no-require-git', '--no-ignore-dot', '--glob', '!.git'] as const;

/**
 * Shell lines, run from `root`, that define `tmp` (a temp directory removed on exit), `gi` (`git
 * check-ignore --no-index` against the workspace's rules) and `classify`, which turns NUL-separated
 * paths on stdin into NUL-terminated `SOURCE TAB LINE TAB PATTERN TAB PATH` records, the first three
 * fields empty for a path no rule skips. When git is missing no path is skipped and a line on stderr
 * says so.
 */
export function checkIgnorePrelude(root: string): string {
  const inRepo = pinnedGitCommand('rev-parse', ['--is-inside-work-tree']);
  const bare = pinnedGitCommand('init', ['-q', '--bare']);
  const check = pinnedGitCommand('check-ignore', ['--no-index']);
  return [
    `T=$(printf '\t')`,
    'tmp=$(mktemp -d) || exit 2',
    `trap 'rm -rf "$tmp"' EXIT`,
    `if ! command -v git >/dev/null 2>&1; then echo 'git is not installed: .gitignore rules were not applied' >&2; gi() { cat >/dev/null; return 1; }; classify() { sed -z "s/^/$T$T$T/"; }`,
    `else`,
    `  if ${inRepo} >/dev/null 2>&1; then gi() { ${check} "$@"; }`,
    `  else ${bare} "$tmp/g" || exit 2; gi() { GIT_DIR="$tmp/g" GIT_WORK_TREE=${quoteShellArgument(root)} ${check} "$@"; }; fi`,
    // -v also prints the paths whose last matching rule is a negation (`!keep.log`): not ignored
    `  classify() { gi --stdin -z -n -v | paste -z -d "$T" - - - - | sed -z "s/^[^$T]*$T[^$T]*$T![^$T]*$T/$T$T$T/"; }`,
    `fi`,
  ].join('\n');
}

/** Splits `classify` output (see {@link checkIgnorePrelude}) of skipped paths into {@link IgnoredPath}s, top-most only, sorted by path. Never throws. */
export function parseIgnoredRecords(text: string, relative: (path: string) => string): IgnoredPath[] {
  const found: IgnoredPath[] = [];
  for (const record of text.split('\0')) {
    const [source, line, pattern, ...rest] = record.split('\t');
    const path = rest.join('\t');
    if (path === '' || !source) continue;
    found.push({ path: relative(path), rule: `${relative(source)}:${line}:${pattern}` });
  }
  const paths = new Set(found.map((entry) => entry.path));
  return found
    .filter((entry) => {
      for (let cut = entry.path.lastIndexOf('/'); cut > 0; cut = entry.path.lastIndexOf('/', cut - 1)) {
        if (paths.has(entry.path.slice(0, cut))) return false;
      }
      return true;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `./a/b` → `a/b`; an absolute path under `root` → relative to it; anything else unchanged. */
export function rootRelative(root: string): (path: string) => string {
  return (path) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path.replace(/^\.\//, ''));
}
