/**
 * search_files: regex or fixed-string search over the workspace with ripgrep, GNU grep as fallback.
 *
 * Programs: `rg --json` (parsed message by message, see parse-rg-json.ts) or, when rg is not
 * installed (exit 127), `grep -r -n -Z -I` (NUL after each name, see parse-grep-output.ts). Both
 * exit 0 = matches, 1 = no match (not an error), 2 = error (an invalid pattern when nothing was
 * found; unreadable files otherwise, reported in `warnings`). argv is `… -e PATTERN -- PATH`
 * with an explicit path (`.` for the root), so a pattern starting with `-` is a pattern and the
 * program never reads stdin. Symlinks are not followed (no `-L`, grep `-r`).
 *
 * Ordering and pagination: results are ordered by path (component-wise, as `rg --sort path`) then
 * line, so `offset` pages are stable. rg first runs multithreaded and unsorted, collecting up to
 * 20,000 units that are then sorted here; only when there are more does it rerun with
 * `--sort path` (single-threaded) and stop the program once the page is full. The grep fallback
 * cannot sort: past 20,000 units it pages in traversal order (stable while the tree is unchanged).
 * `--max-count` is only used in files_with_matches mode (one match per file is enough), because
 * per-file caps would change what later pages contain.
 * @module
 */
import {
  defineTool,
  type SandboxClient,
  SandboxError,
  SandkitErrorCode,
  type Tool,
  ToolError,
} from '@sandkit/core';
import type { IgnoredSummary } from '../workspace/ignore-rules.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { checkPathConvention } from '../workspace/path-convention.js';
import { resolveRoot, resolveToolPath } from '../workspace/resolve-path.js';
import { hasNonAscii } from '../workspace/unicode-name-twin.js';
import {
  confinedSearchCommand,
  notFoundExit,
  notSearchableExit,
  outsideRootExit,
} from './confined-search-command.js';
import { runSearch, type SearchRun } from './run-search.js';
import { patternForms, searchArgv } from './search-argv.js';
import { type SearchUnit, sortUnits } from './search-collector.js';
import { searchFilesInputSchema, searchFilesOutputSchema } from './search-files-schema.js';
import { page } from './search-page.js';
import { skippedByRules } from './skipped-by-rules.js';

const description = `Search file contents under the workspace with ripgrep (regular expressions, Rust regex syntax; grep -E if ripgrep is missing).
- pattern is a regex by default; set fixedStrings: true to search literal text such as "foo(" or "a.b[0]". A pattern may start with "-".
- path: a directory or file relative to the workspace root (default: the root). glob filters file names, e.g. "*.ts" or "src/**/*.py".
- Hidden files are searched; .git is not; files skipped by .gitignore rules (in or outside a git repository, nested ones too) are not searched, and when one of them holds a match, ignored names it with its rule (search it by passing its path). Binary files are skipped. Does not follow symlinks. find_files and list_files apply the same rules.
- outputMode: "content" (default) returns matching lines with line numbers (and context lines if context > 0); "files_with_matches" returns file paths; "count" returns matching-line counts per file.
- At most maxMatches results per call (default 100); if truncated is true, call again with offset: nextOffset for the next page. Results are ordered by path, then line.
- Lines longer than 500 characters are clipped.
- An invalid regex fails with code invalid_pattern and ripgrep's reason: escape the special characters or use fixedStrings.`;

/** Options of {@link createSearchFilesTool}. */
export interface SearchFilesToolOptions extends CodingToolOptions {
  /**
   * Search program: `auto` uses rg and falls back to grep when rg is not installed.
   * @default 'auto'
   */
  engine?: 'auto' | 'rg' | 'grep';
}

/** Units collected from an unsorted run before switching to a sorted, early-stopping run. */
const collectLimit = 20_000;

/**
 * Creates the search_files tool (permission `read`). Result: `matches` (content mode: path, 1-based
 * line, clipped text, before/after context), `files` or `counts` in the other modes, `truncated`
 * and `nextOffset` when more results exist or the page hit `maxOutputBytes`, `engine`, `warnings`.
 * @throws ToolError `invalid_pattern` with the program's reason for a bad regex; `outside_root` for
 *   a path outside the root; `not_found` when the path does not exist.
 * @throws SandkitError `invalid_option` for a bad option (see normalizeCodingToolOptions).
 */
export function createSearchFilesTool(
  client: SandboxClient,
  options: SearchFilesToolOptions = {},
): Tool<typeof searchFilesInputSchema, typeof searchFilesOutputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  let engine: 'rg' | 'grep' | undefined = options.engine === 'auto' ? undefined : options.engine;
  return defineTool({
    name: 'search_files',
    description,
    inputSchema: searchFilesInputSchema,
    outputSchema: searchFilesOutputSchema,
    permission: 'read',
    async execute(asked, { signal }) {
      if (asked.path !== undefined) checkPathConvention(asked.path);
      // a directory named in another Unicode normal form than typed (NFD from macOS): search it
      const twin =
        asked.path && hasNonAscii(asked.path) ? await resolveToolPath(context, asked.path) : undefined;
      const input = twin?.notice ? { ...asked, path: twin.relative } : asked;
      const root = await resolveRoot(context);
      const mode = input.outputMode ?? 'content';
      const offset = input.offset ?? 0;
      const maxMatches = input.maxMatches ?? 100;
      const run = async (
        chosen: 'rg' | 'grep',
        sorted: boolean,
        stopAfterUnits: number,
      ): Promise<SearchRun> =>
        runSearch(client, confinedSearchCommand(root, input.path, searchArgv(chosen, input, sorted)), {
          engine: chosen,
          mode,
          context: input.context ?? 0,
          cwd: root,
          stopAfterUnits,
          signal,
        });
      let chosen = engine ?? 'rg';
      // the skipped-file probe (rg only) runs beside the search; grep knows no ignore files
      const probe = chosen === 'rg' ? skippedFiles(client, root, input, signal) : Promise.resolve(undefined);
      let first = await run(chosen, false, collectLimit + 1);
      if (first.result.exitCode === 127 && chosen === 'rg' && engine === undefined) {
        chosen = 'grep';
        first = await run(chosen, false, collectLimit + 1);
      }
      engine ??= chosen;
      assertRan(first, chosen, signal);
      let units: SearchUnit[];
      let complete: boolean;
      if (!first.stopped) {
        units = sortUnits(first.collector.units);
        complete = true;
      } else {
        const second = await run(chosen, chosen === 'rg', offset + maxMatches + 1);
        assertRan(second, chosen, signal);
        units = second.collector.units;
        complete = !second.stopped;
      }
      const result = page(units, {
        offset,
        maxMatches,
        mode,
        engine: chosen,
        complete,
        maxOutputBytes: context.maxOutputBytes,
        warnings: chosen === 'grep' ? [...warningsOf(first), grepIgnoreWarning] : warningsOf(first),
      });
      const skipped = await probe;
      const found = new Set(units.map((unit) => (unit.kind === 'match' ? unit.match.path : unit.path)));
      const ignored = chosen === 'rg' ? skipped?.(found) : undefined;
      const shown = JSON.stringify([result.matches, result.files, result.counts]);
      const notice = [
        twin?.notice,
        patternForms(input.pattern).length > 1 && shown !== shown.normalize('NFC')
          ? 'some results are stored in decomposed Unicode (NFD, as files from macOS are); the pattern was searched in both normal forms'
          : undefined,
      ]
        .filter(Boolean)
        .join('. ');
      return { ...result, ...(ignored ? { ignored } : {}), ...(notice ? { notice } : {}) };
    },
  });
}

const grepIgnoreWarning =
  'searched with grep (ripgrep is not installed): .gitignore rules were not applied; .git was skipped';

/**
 * Starts the probe; resolves to a function that drops the files the search did find (an ignored
 * directory named as the search path is searched). A failed probe is no result, never an error.
 */
async function skippedFiles(
  client: SandboxClient,
  root: string,
  input: Parameters<typeof skippedByRules>[2],
  signal: AbortSignal | undefined,
): Promise<((found: ReadonlySet<string>) => IgnoredSummary | undefined) | undefined> {
  const all = await skippedByRules(client, root, input, signal).catch((error: unknown) => {
    if (SandboxError.isInstance(error)) throw error;
    return undefined;
  });
  if (all === undefined) return undefined;
  return (found) => {
    const paths = all.paths.filter((entry) => !found.has(entry.path));
    return paths.length === 0 ? undefined : { count: all.count - (all.paths.length - paths.length), paths };
  };
}

function assertRan(run: SearchRun, engine: 'rg' | 'grep', signal: AbortSignal | undefined): void {
  const { result } = run;
  if (run.stopped || result.exitCode === 0 || result.exitCode === 1) return;
  if (signal?.aborted)
    throw new ToolError({ code: SandkitErrorCode.aborted, message: 'search aborted by the caller' });
  const reason = result.stderr.trim() || `exit ${result.exitCode ?? result.signal}`;
  if (result.exitCode === 127) {
    throw new ToolError({
      code: SandkitErrorCode.commandFailed,
      message: `${engine} is not installed in the sandbox: ${reason}`,
    });
  }
  if (result.exitCode === outsideRootExit) {
    throw new ToolError({
      code: SandkitErrorCode.outsideRoot,
      message: `the search path leads outside the workspace root (to ${result.stderr.trim()}); use a path inside the root`,
    });
  }
  if (result.exitCode === notSearchableExit) {
    throw new ToolError({
      code: SandkitErrorCode.refused,
      message:
        'the search path is not a regular file or a directory (a FIFO, socket or device would block the search); pass a directory or a regular file',
    });
  }
  if (result.exitCode === 2 && run.collector.units.length > 0) return; // some files unreadable; results stand
  if (result.exitCode === notFoundExit) {
    throw new ToolError({
      code: SandkitErrorCode.notFound,
      message: 'the search path does not exist; list_files or find_files show what exists',
    });
  }
  throw new ToolError({
    code: SandkitErrorCode.invalidPattern,
    message: `${engine} rejected the pattern: ${reason}. Escape regex special characters (\\( \\[ \\.) or pass fixedStrings: true`,
    details: { stderr: result.stderr },
  });
}

function warningsOf(run: SearchRun): string[] {
  return run.result.exitCode === 2 && !run.stopped
    ? ['some files could not be read; results may be incomplete']
    : [];
}
