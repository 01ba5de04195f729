/**
 * The part list_files and find_files share: run their `find` pipeline (whose directory checks
 * exit 3 with `missing` or `not a directory` on stderr), turn exit 3 and a kill into ToolErrors,
 * prefix each record with the listed directory, and cut the page at the tool's output cap.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from '../workspace/coding-tool-options.js';
import type { ResolvedPath } from '../workspace/resolve-path.js';
import { takeWithinBytes } from './take-within-bytes.js';

/** How one tool reads and names its records. */
export interface FindPageSpec<Record> {
  /** Splits find's stdout into records (paths relative to `dir`). */
  parse(stdout: string): Record[];
  /** The record with its path made relative to the root (`prefix` is `''` or `dir/`). */
  withPrefix(record: Record, prefix: string): Record;
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
  page: { offset: number; limit: number; signal: AbortSignal | undefined },
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
  if (result.exitCode === null) throw new ToolError({ code: SandkitErrorCode.aborted, message: spec.abortedMessage });
  const records = spec.parse(result.stdout);
  const prefix = dir.relative === '.' ? '' : `${dir.relative}/`;
  const items = records.slice(0, page.limit).map((record) => spec.withPrefix(record, prefix));
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
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
