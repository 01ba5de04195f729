/**
 * Git command lines whose output does not depend on the user's git config. Every git call whose
 * output is parsed or stored (a diff that becomes a patch, a list of files, a message matched
 * against) is built here, so a repository or global config such as `diff.noprefix=true`,
 * `diff.mnemonicPrefix`, `diff.external`, `color.ui=always` or `core.quotePath=false` cannot change
 * what sandkit reads, and no hook of the repository runs. Settings are git-config(1)'s; `-c` on the command line wins over every config
 * file, and explicit diff options (`--src-prefix`, `--no-color`, `--no-ext-diff`) win over config.
 * @module
 */
import { formatCommand } from './shell-quote.js';

/**
 * `-c` pairs put before every subcommand: the config git-config(1) lets change a parsed format,
 * and `core.hooksPath=/dev/null` so that no hook (`post-checkout`, `pre-commit`, …) runs.
 */
export const pinnedGitConfig: readonly string[] = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'diff.relative=false',
  '-c',
  'diff.context=3',
  '-c',
  'color.ui=never',
  '-c',
  'color.diff=never',
  '-c',
  'core.quotePath=true',
  '-c',
  'core.autocrlf=false',
  '-c',
  'apply.whitespace=warn',
  '-c',
  'log.showSignature=false',
  // No hook runs: a hook in the checkout (written by a model patch, or the repository's own)
  // would otherwise run inside sandkit's own git steps (R11). sandkit's git calls need none.
  '-c',
  'core.hooksPath=/dev/null',
];

/** Options put right after a diff-producing subcommand (`diff`, `show`, `log`, `format-patch`). */
export const pinnedGitDiffOptions: readonly string[] = [
  '--no-color',
  '--no-ext-diff',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/**
 * Environment for pinned git calls: no system config (`/etc/gitconfig`), C locale (messages are
 * matched in English), no pager, no prompt. The user's global config still applies (identity,
 * `safe.directory`); the `-c` options of {@link pinnedGitArgv} override what it could change.
 */
export const pinnedGitEnv: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  LC_ALL: 'C',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
};

/**
 * The same as {@link pinnedGitArgv}, as one shell command that also sets {@link pinnedGitEnv}
 * (`env NAME=value … git …`), for scripts run where the exec's `env` option is not at hand.
 */
export function pinnedGitCommand(
  subcommand: string,
  args: readonly string[] = [],
  globalArgs: readonly string[] = [],
): string {
  const assignments = Object.entries(pinnedGitEnv).map(([name, value]) => `${name}=${value}`);
  return formatCommand(['env', ...assignments, ...pinnedGitArgv(subcommand, args, globalArgs)]);
}

const diffSubcommands = new Set(['diff', 'show', 'log', 'format-patch']);

/**
 * The argv of `git` with the format pinned: `git --no-pager <pinnedGitConfig> <subcommand>
 * [<pinnedGitDiffOptions>] <args>`, the diff options only for `diff`, `show`, `log` and
 * `format-patch`. Join it with `formatCommand` for a shell, and run it with {@link pinnedGitEnv}.
 *
 * @param subcommand the git subcommand, e.g. `'diff'`; `globalArgs` (e.g. `['-C', dir]`) go before it.
 * @example pinnedGitArgv('diff', ['--cached', '--binary']) // git … diff --no-color … --cached --binary
 */
export function pinnedGitArgv(
  subcommand: string,
  args: readonly string[] = [],
  globalArgs: readonly string[] = [],
): string[] {
  const diffOptions = diffSubcommands.has(subcommand) ? pinnedGitDiffOptions : [];
  return ['git', '--no-pager', ...pinnedGitConfig, ...globalArgs, subcommand, ...diffOptions, ...args];
}
