import {
  formatCommand,
  pinnedGitArgv,
  pinnedGitEnv,
  quoteShellArgument,
  type SandboxClient,
} from '@sandkit/core';

/**
 * `git diff` of everything the run changed in `workdir`, new untracked files included (ignored files
 * are not), as one unified diff against HEAD (or against the empty tree in a repo without commits).
 *
 * Every git call has its format pinned (core's `pinnedGitArgv` / `pinnedGitEnv`), so the patch has
 * `a/` `b/` prefixes, no colour and no external diff and applies with `git apply` (`-p1`) whatever the
 * repository's or the user's config says (D01: `diff.noprefix`, `diff.mnemonicPrefix`,
 * `diff.external`, `color.ui=always`, `core.quotePath`).
 *
 * It stages into a throw-away index file (`GIT_INDEX_FILE`), so the repo's own index is untouched.
 * Returns `''` when `workdir` is not a git work tree.
 * @param options `base`: the commit or tree to diff against instead of HEAD (`sandkit run` passes the
 *   tree of the workspace as prepared, so commits the agent makes stay in the patch).
 * @throws SandboxError when the sandbox fails; a git error (exit ≠ 0) is returned as `''`, with its
 *   stderr in `error`.
 */
export async function workspaceDiff(
  client: SandboxClient,
  workdir: string,
  signal?: AbortSignal,
  options: { base?: string } = {},
): Promise<{ diff: string; error?: string }> {
  const git = (subcommand: string, ...args: string[]): string =>
    formatCommand(pinnedGitArgv(subcommand, args));
  const script = [
    `${git('rev-parse', '--is-inside-work-tree')} >/dev/null 2>&1 || exit 0`,
    'idx=$(mktemp -u) || exit 2',
    'trap \'rm -f "$idx"\' EXIT',
    'export GIT_INDEX_FILE="$idx"',
    options.base === undefined
      ? `if ${git('rev-parse', '--verify', '-q', 'HEAD')} >/dev/null; then base=HEAD; ${git('read-tree', 'HEAD')} || exit 2; else base=; fi`
      : `base=${quoteShellArgument(options.base)}; ${git('read-tree', options.base)} || exit 2`,
    `${git('add', '-A', '.')} || exit 2`,
    `${git('diff', '--cached', '--binary')} $base`,
  ].join('\n');
  const result = await client.exec(script, {
    cwd: workdir,
    env: { ...pinnedGitEnv },
    maxOutputBytes: 16 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  if (result.exitCode !== 0)
    return { diff: '', error: result.stderr.trim() || `git exited with ${result.exitCode}` };
  return { diff: result.stdout };
}
