/**
 * Paths written in another convention than "relative to the workspace root": shell syntax the
 * tools do not expand (`~`, `~user`, `$HOME`, `${VAR}`), a `file://` URL, a Windows drive or UNC
 * path. Taken literally they would create directories named `~` or `$HOME` in the workspace (and
 * in the run's patch), so every path field refuses them with a message saying how to write the path.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';

/** What a path in another convention looks like, and what the model should know about it. */
const conventions: readonly { test: RegExp; what: string }[] = [
  { test: /^~[^/]*(\/|$)/, what: 'starts with "~", which is not expanded to a home directory' },
  {
    test: /^\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)(\/|$)/,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${VAR}, named for the model
    what: 'starts with a shell variable, which is not expanded ($HOME, ${VAR} are taken literally)',
  },
  { test: /^file:\/\//i, what: 'is a file:// URL, not a path' },
  { test: /^[A-Za-z]:[\\/]/, what: 'is a Windows path (a drive letter); paths here are POSIX' },
  { test: /^\\\\/, what: 'is a Windows UNC path; paths here are POSIX' },
];

/**
 * Refuses `path` when it is written in another convention (see the module doc). A name that really
 * starts with `~` or `$` is reached as `./~name`.
 * @throws ToolError `invalid_arguments` saying that paths are relative to the workspace root and
 *   that `~` and `$HOME` are not expanded.
 */
export function checkPathConvention(path: string, field = 'path'): void {
  const found = conventions.find((convention) => convention.test.test(path));
  if (!found) return;
  throw new ToolError({
    code: SandkitErrorCode.invalidArguments,
    message: `${field} ${JSON.stringify(path)} ${found.what}. Paths are relative to the workspace root (or absolute inside it); "~" and "$HOME" are not expanded, and nothing outside the workspace can be reached. Use a path such as "src/app.py" (a name that really starts with "~" or "$" as "./~name").`,
    details: { path },
  });
}
