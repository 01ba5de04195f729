/**
 * git_diff: the working tree's (or the index's) changes as patch text plus per-file counts.
 *
 * Programs: `git diff --numstat -z -M` for the file list (NUL-separated, never quoted; a rename
 * record is an empty path field then OLD NUL NEW; `-` counts mean binary) and
 * `git diff -M` for the text, both with the format pinned (core's `pinnedGitArgv`: a/ b/ prefixes, no colour, no external diff; non-ASCII names as they are). git's exit code alone decides success
 * (0 = success, even with warnings on stderr, which are returned in `warnings`; 128/129 = error).
 *
 * Untracked files are not part of `git diff`, and this tool does not `git add -N` them (that would
 * change the index behind the model's back): their names are listed in `untracked` instead, so
 * the model can stage them itself or read them.
 * @module
 */
import { posix } from 'node:path';
import { defineTool, type SandboxClient, type Tool, truncateUtf8 } from '@sandkit/core';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { parseUnifiedDiff } from '../diff/parse-unified-diff.js';
import { cwdToolError } from '../exec/cwd-tool-error.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { resolveToolPath } from '../workspace/resolve-path.js';
import { runGit } from './git-command.js';
import { parseNumstatZ } from './parse-numstat.js';

const description = `Show uncommitted changes of a git repository as a unified diff plus a per-file list of added/deleted line counts.
- Default: working tree vs the index (unstaged changes). staged: true → index vs HEAD. base: "HEAD", a branch, tag or commit → working tree vs that commit (with staged: index vs it).
- paths limits the diff to those files or directories (literal paths, no globs).
- files[] comes from git's machine-readable output: renames have oldPath; binary files have binary: true and additions/deletions -1.
- Untracked (new, never added) files are NOT in a git diff; their names are listed in untracked. Stage them with git add to see their content in the diff.
- diff is cut at the output cap (truncated: true); narrow it with paths to see the rest.
- warnings holds what git printed on stderr (for example CRLF conversion notices); they are not errors.`;

const inputSchema = z.object({
  cwd: z
    .string()
    .max(4096)
    .optional()
    .describe('Directory inside the repository, relative to the workspace root. Default: the root.'),
  paths: z
    .array(z.string().min(1).max(4096))
    .max(100)
    .optional()
    .describe('Limit the diff to these files/directories (relative to cwd).'),
  staged: z
    .boolean()
    .optional()
    .describe('Diff the index (staged changes) instead of the working tree. Default false.'),
  base: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[^-\s][^\s]*$/, 'a revision: no leading "-", no spaces')
    .refine(hasNoNul, 'base must not contain a NUL byte (no revision can hold one)')
    .optional()
    .describe('Commit, branch or tag to diff against (for example "HEAD" or "main"). Default: the index.'),
});

const fileSchema = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'copied']).optional(),
  additions: z.number().int().min(-1),
  deletions: z.number().int().min(-1),
  binary: z.boolean(),
});

const outputSchema = z.object({
  diff: z.string(),
  files: z.array(fileSchema),
  truncated: z.boolean(),
  untracked: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional(),
});

/** Input of the git_diff tool. */
export type GitDiffInput = z.input<typeof inputSchema>;
/** Result of the git_diff tool. */
export type GitDiffOutput = z.output<typeof outputSchema>;

/**
 * Creates the git_diff tool (permission `read`).
 *
 * The result holds `diff` (git's patch text, paths C-quoted by git only when they contain `"`,
 * `\`, or control characters; capped at `maxOutputBytes` with `truncated: true`), `files` (one
 * entry per changed file from `--numstat -z`; names are real strings, never quoted), `untracked`
 * (at most 200 untracked, non-ignored names, when any) and `warnings` (git's stderr of successful calls).
 * @throws ToolError `outside_root` for a cwd or path outside the root; `not_found` for a cwd that is
 *   not a directory; `command_failed` with git's reason when git fails (not a repository, unknown
 *   revision).
 */
export function createGitDiffTool(
  client: SandboxClient,
  options?: CodingToolOptions,
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'git_diff',
    description,
    inputSchema,
    outputSchema,
    permission: 'read',
    async execute(input, { signal }) {
      const cwd = await resolveToolPath(context, input.cwd ?? '.');
      const pathspecs: string[] = [];
      for (const path of input.paths ?? []) {
        const resolved = await resolveToolPath(context, posix.join(cwd.relative, path));
        pathspecs.push(posix.relative(cwd.absolute, resolved.absolute) || '.');
      }
      const selection = [
        ...(input.staged ? ['--cached'] : []),
        ...(input.base ? [input.base] : []),
        '--',
        ...pathspecs,
      ];
      const common = { cwd: cwd.absolute, ...(signal ? { signal } : {}) };
      // three read-only git calls at once: optional index locks are off (GIT_OPTIONAL_LOCKS=0)
      const [numstat, text, untracked] = await Promise.all([
        runGit(context, ['--literal-pathspecs', 'diff', '--numstat', '-z', '-M', ...selection], common),
        runGit(context, ['--literal-pathspecs', 'diff', '-M', ...selection], {
          ...common,
          maxOutputBytes: context.maxOutputBytes + 1,
        }),
        runGit(
          context,
          ['--literal-pathspecs', 'ls-files', '-z', '--others', '--exclude-standard', '--', ...pathspecs],
          {
            ...common,
            maxOutputBytes: 64 * 1024,
          },
        ),
      ]).catch((error: unknown) => {
        throw cwdToolError(error, input.cwd ?? '.');
      });
      const cut = truncateUtf8(text.result.stdout, context.maxOutputBytes);
      const statuses = statusByPath(cut.text);
      const files = parseNumstatZ(numstat.result.stdout).map((entry) => {
        const status = statuses.get(entry.path);
        return status === undefined ? entry : { ...entry, status };
      });
      const untrackedNames = untracked.result.stdout.split('\0').slice(0, -1).slice(0, 200);
      const warnings = [...new Set([...numstat.warnings, ...text.warnings, ...untracked.warnings])];
      const truncated = cut.truncated || text.result.stdoutTruncated;
      if (truncated) {
        warnings.push(
          `diff text cut at ${cut.keptBytes} of ${text.result.stdoutBytes} bytes; files[] is complete — pass paths to see the rest`,
        );
      }
      return {
        diff: cut.text,
        files,
        truncated,
        ...(untrackedNames.length > 0 ? { untracked: untrackedNames } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      };
    },
  });
}

/** Status of each file from the patch text's git headers (names unquoted), keyed by new path. */
function statusByPath(diff: string): Map<string, GitDiffOutput['files'][number]['status']> {
  const statuses = new Map<string, GitDiffOutput['files'][number]['status']>();
  for (const file of parseUnifiedDiff(diff, { stripLevel: 1 }).files) {
    const path = file.newPath ?? file.oldPath;
    if (path !== null) statuses.set(path, file.status);
  }
  return statuses;
}
