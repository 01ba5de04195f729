/**
 * The part list_files and find_files share: run their `find` pipeline (ignore-filtered-find.ts,
 * whose directory checks exit 3 with `missing` or `not a directory` on stderr), turn exit 3 and a
 * kill into ToolErrors, read the page (paths relative to the root) and the skipped paths after the
 * marker, and cut the page at the tool's output cap.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from '../workspace/coding-tool-options.js';
import type { ResolvedPath } from '../workspace/resolve-path.js';
import {
  type IgnoredSummary,
  maxIgnoredListed,
  parseIgnoredRecords,
  rootRelative,
} from '../workspace/ignore-rules.js';
import { ignoredMarker } from './ignore-filtered-find.js';
import { takeWithinBytes } from './take-within-bytes.js';

/** How one tool reads and names its records. */
export interface FindPageSpec<Record> {
  /** Splits the page part of stdout into records (paths relative to the root). */
  parse(stdout: string): Record[];
  /** Message when the path is not a directory. */
  notDirectoryMessage: string;
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
 * Runs `command` and returns the page starting at `offset`.
 * @throws ToolError `not_found`, `not_directory`, `aborted`
 */
export async function runFindPage<Record>(
  context: ToolContext,
  dir: ResolvedPath,
  command: string,
  page: { offset: number; limit: number; signal: AbortSignal | undefined; root: string },
  spec: FindPageSpec<Record>,
): Promise<FindPage<Record>> {
  const result = await context.client.exec(command, {
    maxOutputBytes: 4 * 1024 * 1024,
    ...(page.signal ? { signal: page.signal } : {}),
  });
  if (result.exitCode === 3) {
    const missing = result.stderr.includes('missing');
    throw new ToolError({
      code: missing ? SandkitErrorCode.notFound : SandkitErrorCode.notDirectory,
      message: missing ? `${dir.relative} does not exist` : spec.notDirectoryMessage,
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
