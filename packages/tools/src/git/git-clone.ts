/**
 * git_clone: clones a repository into the workspace and reports the commit and branch checked out.
 *
 * Program: `git clone [--depth N] [--branch B] -- URL DEST`, then
 * `git rev-parse HEAD --abbrev-ref HEAD`. git's exit code alone decides success (0; 128 = error
 * with `fatal:` on stderr); stderr lines of a successful clone ("warning: --depth is ignored in
 * local clones", "You appear to have cloned an empty repository") are returned as `warnings`.
 * Prompts are off (`GIT_TERMINAL_PROMPT=0`) so a private URL fails at once instead of waiting, and
 * the `ext::` transport (which runs commands) is refused.
 * @module
 */
import { defineTool, type SandboxClient, type Tool } from '@sandkit/core';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { resolveRoot, resolveToolPath } from '../workspace/resolve-path.js';
import { runGit } from './git-command.js';

const description = `Clone a git repository into the workspace.
- url: https://…, ssh (git@host:repo), a file:// URL or a local path. No credentials are prompted for: a private repository fails with git's message.
- dest: directory relative to the workspace root (default: the repository name, as git clone does). It must not exist or be empty.
- depth: shallow clone with that many commits (ignored by git for plain local paths; use file:// for a shallow local clone).
- branch: branch or tag to check out (default: the remote's default branch).
- Returns the checked-out commit SHA, the branch (null for a detached tag checkout) and the path.`;

const inputSchema = z.object({
  url: z.string().min(1).max(4096).describe('Repository URL or local path.'),
  dest: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('Target directory relative to the workspace root. Default: the repository name.'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe('Number of commits to fetch (shallow clone).'),
  branch: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[^-\s][^\s]*$/, 'a branch or tag name: no leading "-", no spaces')
    .refine(hasNoNul, 'branch must not contain a NUL byte (no branch or tag can hold one)')
    .optional()
    .describe('Branch or tag to check out.'),
});

const outputSchema = z.object({
  commitSha: z.string().nullable(),
  branch: z.string().nullable(),
  path: z.string(),
  warnings: z.array(z.string()).optional(),
});

/** Input of the git_clone tool. */
export type GitCloneInput = z.input<typeof inputSchema>;
/** Result of the git_clone tool. */
export type GitCloneOutput = z.output<typeof outputSchema>;

/** Options of {@link createGitCloneTool}. */
export interface GitCloneToolOptions extends CodingToolOptions {
  /**
   * Milliseconds before a clone is killed.
   * @default 600_000 (10 minutes)
   */
  timeoutMs?: number;
}

/**
 * Creates the git_clone tool (permission `write`). Result: `commitSha` (40 hex digits, `null` for an
 * empty repository), `branch` (`null` when HEAD is detached), `path` (relative to the root), `warnings`.
 * @throws ToolError `outside_root` when dest is outside the root; `command_failed` with git's reason
 *   (unknown URL, authentication needed, dest not empty, unknown branch); `timed_out`.
 */
export function createGitCloneTool(
  client: SandboxClient,
  options: GitCloneToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  const timeoutMs = options.timeoutMs ?? 600_000;
  return defineTool({
    name: 'git_clone',
    description,
    inputSchema,
    outputSchema,
    permission: 'write',
    async execute(input, { signal }) {
      const root = await resolveRoot(context);
      const dest = await resolveToolPath(context, input.dest ?? defaultCloneDirectory(input.url));
      const common = { cwd: root, ...(signal ? { signal } : {}) };
      const clone = await runGit(
        context,
        [
          'clone',
          ...(input.depth === undefined ? [] : ['--depth', String(input.depth)]),
          ...(input.branch === undefined ? [] : ['--branch', input.branch]),
          '--',
          input.url,
          dest.absolute,
        ],
        { ...common, timeoutMs },
      );
      const warnings = clone.warnings.filter((line) => /^(warning|hint):/i.test(line)); // not "Cloning into…", "done."
      const head = await context.client.exec(
        `git rev-parse --verify -q HEAD && git rev-parse --abbrev-ref HEAD`,
        {
          cwd: dest.absolute,
        },
      );
      const [sha, ref] = head.stdout.trim().split('\n');
      const commitSha = head.exitCode === 0 && sha && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
      const branch = commitSha === null ? (input.branch ?? null) : ref && ref !== 'HEAD' ? ref : null;
      return { commitSha, branch, path: dest.relative, ...(warnings.length > 0 ? { warnings } : {}) };
    },
  });
}

/**
 * The directory `git clone URL` would create: the last path component of the URL, without a
 * trailing `/`, `.git` or `/.git` (git's `git_url_basename`, simplified). Never throws.
 */
export function defaultCloneDirectory(url: string): string {
  const trimmed = url
    .replace(/[/\\]+$/, '')
    .replace(/\/\.git$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  const last =
    trimmed
      .split(/[/:]/)
      .filter((part) => part !== '')
      .at(-1) ?? '';
  return last === '' || last === '.' || last === '..' ? 'repo' : last;
}
