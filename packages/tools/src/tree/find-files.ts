/**
 * find_files: paths under a directory that match a glob (`*` one segment, `**` any depth, `?`).
 *
 * Program (ignore-filtered-find.ts): GNU `find ./DIR -mindepth 1 -regextype posix-extended
 * ( -name .git -prune ) -o ( ! -type d -regex RE -print0 )` from the root, each path classified by
 * `git check-ignore` (the rules search_files and list_files share), the kept ones paged with
 * `tail -z | head -z`, then a sample of the skipped ones with their rules. The glob becomes an
 * anchored extended regex (glob-to-regex.ts). Results come in find's traversal order, which is
 * stable while the tree does not change, so `offset` pages line up. Symlinks are not followed.
 * find exits 0, or 1 when some directories could not be read (their messages become `warnings`).
 * @module
 */
import { defineTool, type SandboxClient, type Tool } from '@sandkit/core';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import type { ResolvedPath } from '../workspace/resolve-path.js';
import { ignoreFilteredFindCommand } from './ignore-filtered-find.js';
import { escapeRegex, globToRegex } from './glob-to-regex.js';
import { findPageOutputFields } from './find-page-schema.js';
import { runFindPage } from './run-find-page.js';

const description = `Find files (not directories) whose path matches a glob, below a directory of the workspace (default: the root).
- The glob is matched against the whole path below that directory: "*" matches within one path segment, "**" any number of directories, "?" one character, [abc] a class, {a,b} alternatives.
- Examples: "*.ts" only top-level .ts files; "**/*.ts" .ts files at any depth; "src/**/test_*.py"; "**/package.json".
- Hidden files are found; .git directories are skipped; paths skipped by .gitignore rules (in or outside a git repository, nested ones too) are left out and named with their rule in ignored, like search_files and list_files do. Symlinks are listed, not followed.
- At most limit paths per call (default 200, max 1000); if truncated is true, call again with offset: nextOffset. Order is the directory traversal order (stable between calls).`;

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .max(1000)
    .refine(hasNoNul, 'pattern must not contain a NUL byte (no path can hold one)')
    .describe('Glob for paths below path, e.g. "**/*.ts".'),
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
  ...findPageOutputFields,
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
    async execute(input, { signal }) {
      const { items, ...rest } = await runFindPage(context, input, signal, {
        command: (root, dir, offset, limit) => findCommand(root, dir, input.pattern, offset, limit),
        parse: (stdout) => stdout.split('\0').slice(0, -1),
        notDirectoryMessage: (dir) => `${dir} is not a directory`,
        abortedMessage: 'find aborted',
      });
      return { files: items, ...rest };
    },
  });
}

/**
 * The shell command (see ignore-filtered-find.ts): files (not directories) whose path below the
 * directory matches the glob and that no ignore rule skips, in find's traversal order, paged.
 */
export function findCommand(
  root: string,
  dir: ResolvedPath,
  pattern: string,
  offset: number,
  limit: number,
): string {
  const start = dir.relative === '.' ? '.' : `./${dir.relative}`;
  return ignoreFilteredFindCommand({
    root,
    dir: dir.relative,
    absoluteDir: dir.absolute,
    predicates: [
      '-regextype',
      'posix-extended',
      '!',
      '-type',
      'd',
      '-regex',
      `${escapeRegex(start)}/${globToRegex(pattern)}`,
    ],
    toRecords: `sed -z 's#^\\./##'`,
    order: '',
    offset,
    limit,
  });
}
