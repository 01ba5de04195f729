/**
 * `gitDirPaths`: the paths of a patch that lie inside a `.git` directory. A model patch writing
 * there (`.git/hooks/post-checkout`, `.git/config`) is refused before any apply step: `git apply`
 * refuses it, but GNU `patch` (the official chain's `--fuzz=5` fallback) writes it, and a hook
 * written there would run inside the harness's own git steps (R11).
 * @module
 */
import { unquoteGitPath } from '@sandkit/tools';

/**
 * Header lines that name a file to `git apply` or GNU `patch`: git's `diff --git`, unified
 * `---`/`+++`, context `***`, `Index:`, git's rename and copy lines.
 */
const headerLine = /^(?:diff |--- |\+\+\+ |\*\*\* |Index: |rename (?:from|to) |copy (?:from|to) )(.*)$/;
/** A path component `.git` (any case: git refuses `.GIT` too), after start, `/`, space or a quote. */
const gitComponent = /(?:^|[/\s"\\])\.git(?:[/\s"\\]|$)/i;

/**
 * The paths with a `.git` component (`.git/x`, `./.git/x`, `a/.git/x`, `sub/.git/x`; C-quoted names
 * unquoted first) on any header line of `patch`, without their `a/` / `b/` prefix, in patch order,
 * without repeats; `[]` when there is none. Every line is read, hunk bodies included, so no hunk count can
 * hide a header from this check; a removed line reading `-- .git/x` is refused too (rare, and
 * safe). Never throws.
 * @example gitDirPaths('--- /dev/null\n+++ b/.git/hooks/post-checkout\n') // ['.git/hooks/post-checkout']
 */
export function gitDirPaths(patch: string): string[] {
  const found: string[] = [];
  for (const raw of patch.split('\n')) {
    const match = headerLine.exec(raw.replace(/\r$/, ''));
    if (match === null) continue;
    const names = unquoteAll(match[1]!);
    if (!gitComponent.test(names)) continue;
    // named as the user wrote them, less the a/ b/ prefix (a name with spaces shows in pieces)
    const paths = names.split(/\s+/).filter((name) => gitComponent.test(name));
    for (const path of paths.length > 0 ? paths : [names.trim()]) {
      const shown = path.replace(/^[ab]\//, '');
      if (!found.includes(shown)) found.push(shown);
    }
  }
  return found;
}

/** The line with each C-quoted name (`"a/\056git/x"`) replaced by its unquoted text. */
function unquoteAll(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => unquoteGitPath(quoted));
}
