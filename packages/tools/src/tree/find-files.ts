/**
 * find_files: paths under a directory that match a glob (`*` one segment, `**` any depth, `?`).
 *
 * Program: GNU `find DIR -mindepth 1 -regextype posix-extended ( -name .git -prune ) -o
 * ( ! -type d -regex RE -printf '%P\0' ) | tail -z | head -z`: the glob becomes an anchored
 * extended regex (glob-to-regex.ts), records are NUL-terminated, and `head -z` exits once the
 * page is full, so find stops early (SIGPIPE) on a large tree. Results come in find's traversal
 * order, which is stable while the tree does not change, so `offset` pages line up. Symlinks are
 * not followed; `.git` directories are skipped. find exits 0, or 1 when some directories could
 * not be read (their messages become `warnings`).
 * @module
 */
import {
  defineTool,
  formatCommand,
  quoteShellArgument,
  type SandboxClient,
  type Tool,
} from '@sandkit/core';
import { z } from 'zod';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { resolveToolPath } from '../workspace/resolve-path.js';
import { escapeRegex, globToRegex } from './glob-to-regex.js';
import { runFindPage } from './run-find-page.js';

const description = `Find files (not directories) whose path matches a glob, below a directory of the workspace (default: the root).
- The glob is matched against the whole path below that directory: "*" matches within one path segment, "**" any number of directories, "?" one character, [abc] a class, {a,b} alternatives.
- Examples: "*.ts" only top-level .ts files; "**/*.ts" .ts files at any depth; "src/**/test_*.py"; "**/package.json".
- .git directories are skipped; symlinks are listed, not followed.
- At most limit paths per call (default 200, max 1000); if truncated is true, call again with offset: nextOffset. Order is the directory traversal order (stable between calls).`;

const inputSchema = z.object({
  pattern: z.string().min(1).max(1000).describe('Glob for paths below path, e.g. "**/*.ts".'),
  path: z
    .string()
    .max(4096)
    .optional()
    .describe('Directory to search, relative to the workspace root. Default: the root.'),
  limit: z.number().int().min(1).max(1000).optional().describe('Paths per page. Default 200.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Paths to skip: pass nextOffset from a truncated result. Default 0.'),
});

const outputSchema = z.object({
  files: z.array(z.string()),
  truncated: z.boolean(),
  nextOffset: z.number().int().min(0).optional(),
  warnings: z.array(z.string()).optional(),
});

/** Input of the find_files tool. */
export type FindFilesInput = z.input<typeof inputSchema>;
/** Result of the find_files tool. */
export type FindFilesOutput = z.output<typeof outputSchema>;

/**
 * Creates the find_files tool (permission `read`). Result: `files` (paths relative to the root),
 * `truncated`, `nextOffset`, `warnings`.
 * @throws ToolError `outside_root` for a path outside the root, `not_found` / `not_directory`
 *   when the directory does not exist or is a file.
 */
export function createFindFilesTool(
  client: SandboxClient,
  options?: CodingToolOptions,
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'find_files',
    description,
    inputSchema,
    outputSchema,
    permission: 'read',
    effect: 'read',
    async execute(input, { signal }) {
      const dir = await resolveToolPath(context, input.path ?? '.');
      const limit = input.limit ?? 200;
      const offset = input.offset ?? 0;
      const { items, ...rest } = await runFindPage(
        context,
        dir,
        findCommand(dir.absolute, input.pattern, offset, limit),
        { offset, limit, signal },
        {
          parse: (stdout) => stdout.split('\0').slice(0, -1),
          withPrefix: (path, prefix) => prefix + path,
          notDirectoryMessage: `${dir.relative} is not a directory`,
          abortedMessage: 'find aborted',
        },
      );
      return { files: items, ...rest };
    },
  });
}

/** The shell command: directory checks (exit 3), then find | tail | head, NUL-separated. */
export function findCommand(dir: string, pattern: string, offset: number, limit: number): string {
  const quoted = quoteShellArgument(dir);
  const regex = `${escapeRegex(dir === '/' ? '' : dir)}/${globToRegex(pattern)}`;
  const find = formatCommand([
    'find',
    dir,
    '-mindepth',
    '1',
    '-regextype',
    'posix-extended',
    '(',
    '-name',
    '.git',
    '-type',
    'd',
    '-prune',
    ')',
    '-o',
    '(',
    '!',
    '-type',
    'd',
    '-regex',
    regex,
    '-printf',
    '%P\\0',
    ')',
  ]);
  return [
    `if [ ! -e ${quoted} ]; then echo missing >&2; exit 3; fi`,
    `if [ ! -d ${quoted} ]; then echo notdir >&2; exit 3; fi`,
    `${find} | tail -z -n +${offset + 1} | head -z -n ${limit + 1}`,
  ].join('\n');
}
