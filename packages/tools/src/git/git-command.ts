/**
 * Runs git for the git tools. Success is decided by git's exit code alone: 0 is success, whatever
 * git printed on stderr (CRLF conversion warnings, "--depth is ignored in local clones", …);
 * stderr lines of a successful call are returned as `warnings`. Any other exit is a ToolError
 * carrying git's own reason.
 * @module
 */
import {
  type ExecResult,
  formatCommand,
  pinnedGitArgv,
  pinnedGitEnv,
  SandkitErrorCode,
  ToolError,
} from '@sandkit/core';
import type { ToolContext } from '../workspace/coding-tool-options.js';

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** Absolute sandbox directory to run in. */
  cwd: string;
  /** Per-stream byte cap passed to exec. @default exec's default (1 MiB) */
  maxOutputBytes?: number;
  /** Milliseconds before git is killed. @default none */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A successful git call. */
export interface GitResult {
  result: ExecResult;
  /** Non-empty stderr lines of the successful call (git's warnings). */
  warnings: string[];
}

/**
 * Global `-c` options of the git tools, after (so over) the pinned format: non-ASCII names shown as
 * they are to the model (C09; still pinned, whatever the user's `core.quotePath`), and no `ext::`
 * transport in clone URLs.
 */
export const gitToolConfig = ['-c', 'core.quotePath=false', '-c', 'protocol.ext.allow=never'] as const;

/**
 * Runs git with its output format pinned (core's `pinnedGitArgv` and `pinnedGitEnv`: the user's
 * `diff.noprefix`, `color.ui`, `core.quotePath`, `diff.external`, … cannot change it), args joined
 * with `formatCommand` so model values stay single arguments, optional index locks off
 * (`GIT_OPTIONAL_LOCKS=0`) and prompts off.
 *
 * @param args leading `--flag` global options (e.g. `--literal-pathspecs`), then the subcommand and
 *   its arguments.
 * @throws ToolError `command_failed` when git exits non-zero (message: the command and git's stderr),
 *   `timed_out` / `aborted` when it was killed.
 */
export async function runGit(
  context: ToolContext,
  args: readonly string[],
  options: RunGitOptions,
): Promise<GitResult> {
  const split = args.findIndex((arg) => !arg.startsWith('--'));
  const globalArgs = [...gitToolConfig, ...args.slice(0, split)];
  const command = formatCommand(pinnedGitArgv(args[split] ?? '', args.slice(split + 1), globalArgs));
  const result = await context.client.exec(command, {
    cwd: options.cwd,
    env: { ...pinnedGitEnv, GIT_OPTIONAL_LOCKS: '0' },
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const shown = `git ${args.join(' ')}`;
  if (result.timedOut || result.aborted) {
    throw new ToolError({
      code: result.timedOut ? SandkitErrorCode.timedOut : SandkitErrorCode.aborted,
      message: `${shown} was ${result.timedOut ? `killed after ${options.timeoutMs} ms` : 'aborted'}`,
      details: { stderr: result.stderr },
    });
  }
  if (
    result.exitCode !== 0 &&
    /not a git repository|outside a working tree|--no-index/i.test(result.stderr)
  ) {
    throw new ToolError({
      code: SandkitErrorCode.commandFailed,
      message: `${shown} failed: ${options.cwd ?? 'the workspace'} is not a git repository (nor inside one); clone one with git_clone, or run \`git init\` with exec first`,
      details: { exitCode: result.exitCode, stderr: result.stderr },
    });
  }
  if (result.exitCode !== 0) {
    throw new ToolError({
      code: SandkitErrorCode.commandFailed,
      message: `${shown} failed (exit ${result.exitCode ?? `signal ${result.signal}`}): ${gitReason(result.stderr)}`,
      details: { exitCode: result.exitCode, stderr: result.stderr },
    });
  }
  return { result, warnings: stderrLines(result.stderr) };
}

/** The non-empty lines of git's stderr, trimmed. */
export function stderrLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** git's reason for a failure: its `fatal:`/`error:` lines, else its `warning:` lines (git diff outside a repository), else the last lines. */
export function gitReason(stderr: string): string {
  const lines = stderrLines(stderr);
  const fatal = lines.filter((line) => /^(fatal|error):/.test(line));
  const warning = lines.filter((line) => /^warning:/.test(line));
  const chosen = (fatal.length > 0 ? fatal : warning.length > 0 ? warning : lines).slice(-5);
  return chosen.length > 0 ? chosen.join('; ') : '(git printed nothing on stderr)';
}
