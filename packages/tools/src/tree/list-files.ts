/**
 * list_files: entries of one directory, or of a whole tree, with kind, size and mtime.
 *
 * Program (ignore-filtered-find.ts): GNU `find ./DIR -mindepth 1 [-maxdepth 1]` from the root
 * (`.git` pruned), each path classified by `git check-ignore` (the rules search_files and
 * find_files share), the kept ones stat'ed by `find -maxdepth 0 -printf '%p\t%y\t%s\t%T@\0'` and
 * piped through `LC_ALL=C sort -z | tail -z | head -z`, so names with newlines stay one record,
 * the order is the bytewise order of the path, and only the requested page leaves the sandbox;
 * then a sample of the skipped paths with their rules. find never follows symlinks here (its
 * default `-P`): a link is listed as `symlink`, not as its target. find exits 0, or 1 when some
 * entries could not be read (the readable ones are still listed; its messages become `warnings`).
 * @module
 */
import { defineTool, formatCommand, type SandboxClient, type Tool } from '@sandkit/core';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import type { ResolvedPath } from '../workspace/resolve-path.js';
import { ignoreFilteredFindCommand } from './ignore-filtered-find.js';
import { escapeRegex, globToRegex } from './glob-to-regex.js';
import { parseFindRecords } from './parse-find-records.js';
import { findPageOutputFields } from './find-page-schema.js';
import { runFindPage } from './run-find-page.js';

const description = `List the entries of a directory in the workspace (default: the root), with kind (file, dir, symlink, other), size in bytes and modification time.
- recursive: true lists the whole tree below it (paths relative to the workspace root).
- Hidden files are listed; .git is not; paths skipped by .gitignore rules (in or outside a git repository, nested ones too) are left out and named with their rule in ignored, like search_files and find_files do.
- glob filters entries by name ("*.ts"); a glob containing "/" is matched against the path below the listed directory ("src/**/*.ts").
- Entries are sorted by path. At most limit entries per call (default 200, max 1000); if truncated is true, call again with offset: nextOffset.
- Symlinks are listed as symlink and not followed.
- Use find_files to search paths by glob, search_files to search contents.`;

const inputSchema = z.object({
  path: z
    .string()
    .max(4096)
    .optional()
    .describe('Directory to list, relative to the workspace root. Default: the root.'),
  recursive: z.boolean().optional().describe('List the whole tree below the directory. Default false.'),
  glob: z
    .string()
    .min(1)
    .max(1000)
    .refine(hasNoNul, 'glob must not contain a NUL byte (no path can hold one)')
    .optional()
    .describe('Only entries whose name (or, with "/", path) matches this glob.'),
  limit: z.number().int().min(1).max(1000).optional().describe('Entries per page. Default 200.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Entries to skip: pass nextOffset from a truncated result. Default 0.'),
});

const outputSchema = z.object({
  entries: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(['file', 'dir', 'symlink', 'other']),
      size: z.number().int().min(0),
      mtime: z.string(),
    }),
  ),
  ...findPageOutputFields,
});

/** Input of the list_files tool. */
export type ListFilesInput = z.input<typeof inputSchema>;
/** Result of the list_files tool. */
export type ListFilesOutput = z.output<typeof outputSchema>;

/**
 * Creates the list_files tool (permission `read`). Result: `entries` (`path` relative to the root,
 * `kind`, `size` in bytes, `mtime` ISO 8601), `truncated`, `nextOffset`, `warnings`.
 * @throws ToolError `outside_root` for a path outside the root, `not_found` when it does not
 *   exist, `not_directory` when it is not a directory.
 */
export function createListFilesTool(
  client: SandboxClient,
  options?: CodingToolOptions,
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'list_files',
    description,
    inputSchema,
    outputSchema,
    permission: 'read',
    async execute(input, { signal }) {
      const { items, ...rest } = await runFindPage(context, input, signal, {
        command: (root, dir, offset, limit) => listCommand(root, dir, input, offset, limit),
        parse: parseFindRecords,
        notDirectoryMessage: (dir) => `${dir} is not a directory; use read_file for a file`,
        abortedMessage: 'listing aborted',
      });
      return { entries: items, ...rest };
    },
  });
}

/**
 * The shell command (see ignore-filtered-find.ts): entries not skipped by an ignore rule, each
 * stat'ed by `find -maxdepth 0 -printf '%p\t%y\t%s\t%T@\0'`, sorted bytewise, paged.
 * @param dir the listed directory relative to `root` (`.` for the root)
 */
export function listCommand(
  root: string,
  dir: ResolvedPath,
  input: ListFilesInput,
  offset: number,
  limit: number,
): string {
  const start = dir.relative === '.' ? '.' : `./${dir.relative}`;
  const stat = formatCommand([
    'xargs',
    '-0',
    '-r',
    'sh',
    '-c',
    `exec find "$@" -maxdepth 0 -printf '%p\\t%y\\t%s\\t%T@\\0'`,
    'sh',
  ]);
  return ignoreFilteredFindCommand({
    root,
    dir: dir.relative,
    absoluteDir: dir.absolute,
    predicates: [
      ...(input.recursive ? [] : ['-maxdepth', '1']),
      ...(input.glob === undefined ? [] : globFilter(start, input.glob)),
    ],
    toRecords: `${stat} | sed -z 's#^\\./##'`,
    order: 'LC_ALL=C sort -z',
    offset,
    limit,
  });
}

function globFilter(start: string, glob: string): string[] {
  if (!glob.includes('/')) return ['-name', glob];
  return ['-regextype', 'posix-extended', '-regex', `${escapeRegex(start)}/${globToRegex(glob)}`];
}
