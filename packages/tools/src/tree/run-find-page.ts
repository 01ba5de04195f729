/**
 * The part list_files and find_files share: run their `find` pipeline (ignore-filtered-find.ts,
 * whose directory checks exit 3 with `missing` or `not a directory` on stderr), turn exit 3 and a
 * kill into ToolErrors, read the page (paths relative to the root) and the skipped paths after the
 * marker, and cut the page at the tool's output cap.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from '../workspace/coding-tool-options.js';
import { type ResolvedPath, resolveRoot, resolveToolPath } from '../workspace/resolve-path.js';
import {
  type IgnoredSummary,
  maxIgnoredListed,
  parseIgnoredRecords,
  rootRelative,
} from '../workspace/ignore-rules.js';
import { ignoredMarker } from './ignore-filtered-find.js';
import { takeWithinBytes } from './take-within-bytes.js';

/** The paging part of list_files' and find_files' input. */
export interface FindPageInput {
  /** Directory relative to the workspace root; default `.` (the root). */
  path?: string | undefined;
  /** Records per page; default 200. */
  limit?: number | undefined;
  /** Records to skip; default 0. */
  offset?: number | undefined;
}

/** How one tool builds its command and reads and names its records. */
export interface FindPageSpec<Record> {
  /** The tool's `find` pipeline for the resolved directory and page (see ignore-filtered-find.ts). */
  command(root: string, dir: ResolvedPath, offset: number, limit: number): string;
  /** Splits the page part of stdout into records (paths relative to the root). */
  parse(stdout: string): Record[];
  /** Message when the directory (`dir`, relative to the root) is not a directory. */
  notDirectoryMessage(dir: string): string;
  /** Message when the command was killed (aborted). */
  abortedMessage: string;
}

/** One page of records and what the tool result says about it. */
export interface FindPage<Record> {
  items: Record[];
  truncated: boolean;
  nextOffset?: number;
  /** Paths skipped by an ignore rule: how many, and the top-most ones with their rules. */
  ignored?: IgnoredSummary;
  warnings?: string[];
}

/**
 * Resolves `input.path` (default the root) inside the workspace, runs the tool's command and
 * returns the page starting at `input.offset` (default 0) of at most `input.limit` (default 200) records.
 * @throws ToolError `outside_root` for a path outside the root, `not_found`, `not_directory`, `aborted`
 */
export async function runFindPage<Record>(
  context: ToolContext,
  input: FindPageInput,
  signal: AbortSignal | undefined,
  spec: FindPageSpec<Record>,
): Promise<FindPage<Record>> {
  const dir = await resolveToolPath(context, input.path ?? '.');
  const root = await resolveRoot(context);
  const limit = input.limit ?? 200;
  const offset = input.offset ?? 0;
  const page = { offset, limit, root };
  const result = await context.client.exec(spec.command(root, dir, offset, limit), {
    maxOutputBytes: 4 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  if (result.exitCode === 3) {
    const missing = result.stderr.includes('missing');
    throw new ToolError({
      code: missing ? SandkitErrorCode.notFound : SandkitErrorCode.notDirectory,
      message: missing ? `${dir.relative} does not exist` : spec.notDirectoryMessage(dir.relative),
      details: { path: dir.relative },
    });
  }
  if (result.exitCode === null)
    throw new ToolError({ code: SandkitErrorCode.aborted, message: spec.abortedMessage });
  const [pageText, ignoredText] = splitAtMarker(result.stdout);
  const records = spec.parse(pageText);
  const ignored = ignoredText === undefined ? undefined : ignoredPart(ignoredText, page.root);
  const items = records.slice(0, page.limit);
  const kept = items.slice(0, takeWithinBytes(items, context.maxOutputBytes));
  const truncated = records.length > kept.length;
  const warnings = result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  return {
    items: kept,
    truncated,
    ...(truncated ? { nextOffset: page.offset + kept.length } : {}),
    ...(ignored ? { ignored } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The page records and what follows the marker record (`undefined` without one). */
function splitAtMarker(stdout: string): [string, string | undefined] {
  const record = `${ignoredMarker}\0`;
  if (stdout.startsWith(record)) return ['', stdout.slice(record.length)];
  const at = stdout.indexOf(`\0${record}`);
  return at < 0 ? [stdout, undefined] : [stdout.slice(0, at + 1), stdout.slice(at + 1 + record.length)];
}

/** The skipped-path part: `COUNT NUL RECORDS`; `undefined` when nothing was skipped. */
function ignoredPart(text: string, root: string): IgnoredSummary | undefined {
  const countEnd = text.indexOf('\0');
  const count = Number(text.slice(0, countEnd));
  if (countEnd < 0 || !Number.isInteger(count) || count <= 0) return undefined;
  const paths = parseIgnoredRecords(text.slice(countEnd + 1), rootRelative(root)).slice(0, maxIgnoredListed);
  return { count, paths };
}
