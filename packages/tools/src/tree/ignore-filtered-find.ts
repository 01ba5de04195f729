/**
 * The shell pipeline list_files and find_files share: GNU `find` from the workspace root over
 * `./DIR` (`.git` pruned), every path classified by the shared ignore rules (see
 * workspace/ignore-rules.ts), the kept ones turned into the tool's records and paged, then a
 * marker record and a sample of the skipped paths with their rules. When DIR itself is skipped by a
 * rule (the model asked for it by name), nothing below it is filtered.
 *
 * stdout: PAGE-RECORDS `::sandkit-ignored::` NUL COUNT NUL SKIPPED-RECORDS, all NUL-terminated.
 * Exit 3 with `missing` / `notdir` on stderr when DIR does not exist or is not a directory.
 * @module
 */
import { formatCommand, quoteShellArgument } from '@sandkit/core';
import { checkIgnorePrelude, maxIgnoredListed } from '../workspace/ignore-rules.js';

/** Separates the page from the skipped-path sample in the pipeline's stdout. */
export const ignoredMarker = '::sandkit-ignored::';

/** What one tool asks of the pipeline. */
export interface FilteredFindSpec {
  /** The real root and the listed directory relative to it (`.` for the root). */
  root: string;
  dir: string;
  absoluteDir: string;
  /** find predicates selecting the entries (after `-mindepth 1`), e.g. `['-maxdepth', '1']`. */
  predicates: readonly string[];
  /** Shell stage turning kept `./path` NUL records into the tool's records (root-relative). */
  toRecords: string;
  /** Shell stage run on the records before paging (e.g. a sort), or `''`. */
  order: string;
  offset: number;
  limit: number;
}

/** The whole shell command for {@link FilteredFindSpec}. */
export function ignoreFilteredFindCommand(spec: FilteredFindSpec): string {
  const quoted = quoteShellArgument(spec.absoluteDir);
  const start = spec.dir === '.' ? '.' : `./${spec.dir}`;
  const find = formatCommand([
    'find',
    start,
    '-mindepth',
    '1',
    '(',
    '-name',
    '.git',
    '-prune',
    ')',
    '-o',
    '(',
    ...spec.predicates,
    '-print0',
    ')',
  ]);
  return [
    `if [ ! -e ${quoted} ]; then echo missing >&2; exit 3; fi`,
    `if [ ! -d ${quoted} ]; then echo notdir >&2; exit 3; fi`,
    `cd ${quoteShellArgument(spec.root)} || exit 2`,
    checkIgnorePrelude(spec.root),
    `if [ ${quoteShellArgument(start)} != . ] && printf '%s\\0' ${quoteShellArgument(start)} | gi --stdin -z -q 2>/dev/null; then ${find} | sed -z "s/^/$T$T$T/" > "$tmp/all"`,
    `else ${find} | classify > "$tmp/all"; fi`,
    `grep -z "^$T$T$T" "$tmp/all" | sed -z "s/^$T$T$T//" | ${spec.toRecords}${spec.order ? ` | ${spec.order}` : ''} | tail -z -n +${spec.offset + 1} | head -z -n ${spec.limit + 1}`,
    `printf '%s\\0' ${ignoredMarker} "$(grep -z -c -v "^$T$T$T" "$tmp/all")"`,
    `grep -z -v "^$T$T$T" "$tmp/all" | head -z -n ${maxIgnoredListed * 10}`,
    'exit 0',
  ].join('\n');
}
