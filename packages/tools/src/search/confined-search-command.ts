/**
 * Builds search_files' shell command so that confinement costs no extra exec: the model's path is
 * checked lexically here, then resolved inside the same shell that runs the search (`cd -P` for a
 * directory or a file's directory, `realpath` only for a symlinked file), and the search only
 * starts when the real path is the root or below it (otherwise the
 * shell exits {@link outsideRootExit} with the real path on stderr, or {@link notFoundExit} when
 * the path does not exist). rg or grep then receives
 * `./relative/path` (or `.`), so the paths they print are relative to the root.
 * @module
 */
import { posix } from 'node:path';
import { formatCommand, quoteShellArgument, SandkitErrorCode, ToolError } from '@sandkit/core';
import { isInside, realpathInto } from '../workspace/resolve-path.js';

/** Exit status of the command when the path resolves outside the root. */
export const outsideRootExit = 99;
/** Exit status of the command when the path does not exist. */
export const notFoundExit = 98;
/** Exit status of the command when the path is neither a directory nor a regular file (a FIFO would block rg). */
export const notSearchableExit = 97;

/**
 * The command: `argv` (ending with `--`) followed by the search path, run from `root`.
 * @param root the real (symlink-free) root
 * @param path the model's path, relative to the root or absolute; absent, `''` or `.` = the root
 * @param pipeline when given, `prelude` runs after the `cd` and the program's stdout goes to `pipeTo`
 * @throws ToolError `outside_root` when the path is lexically outside the root or holds a NUL byte
 */
export function confinedSearchCommand(
  root: string,
  path: string | undefined,
  argv: readonly string[],
  pipeline?: { prelude: string; pipeTo: string },
): string {
  // ripgrep reads no config file (`--no-config` is in every argv; the variable goes too)
  const cd = `unset RIPGREP_CONFIG_PATH; cd ${quoteShellArgument(root)} || exit 2`;
  const run = (target: string): string =>
    pipeline
      ? `${pipeline.prelude}\n${formatCommand(argv)} ${target} | ${pipeline.pipeTo}`
      : `exec ${formatCommand(argv)} ${target}`;
  if (path === undefined || path === '' || path === '.') return `${cd}\n${run('.')}`;
  const lexical = posix.resolve(root, path);
  if (path.includes('\0') || !isInside(root, lexical)) {
    throw new ToolError({
      code: SandkitErrorCode.outsideRoot,
      message: `path "${path}" is outside the workspace root ${root}; use a path inside the root, relative to it`,
      details: { path, root },
    });
  }
  const quotedLexical = quoteShellArgument(lexical);
  return [
    `r=${quoteShellArgument(root)}`,
    // resolve symlinks with shell builtins (cd -P sets $PWD to the physical path): no extra process
    `if [ -d ${quotedLexical} ]; then cd -P -- ${quotedLexical} || exit 2; t=$PWD`,
    `elif [ -L ${quotedLexical} ]; then ${realpathInto('t', quotedLexical, 'exit 2')}`,
    `elif [ -e ${quotedLexical} ]; then cd -P -- ${quoteShellArgument(posix.dirname(lexical))} || exit 2; t=$PWD/${quoteShellArgument(posix.basename(lexical))}`,
    `else exit ${notFoundExit}; fi`,
    `case $t in "$r") t=. ;; "$r"/*) t=./\${t#"$r"/} ;; *) printf '%s' "$t" >&2; exit ${outsideRootExit} ;; esac`,
    cd,
    `if [ ! -d "$t" ] && [ ! -f "$t" ]; then exit ${notSearchableExit}; fi`,
    run('"$t"'),
  ].join('\n');
}
