/**
 * Test ids that four official SWE-bench parsers form otherwise than the runner names its tests:
 * three read them from a runner's summary lines rather than from its per-test lines, and karma's
 * names them by its own suite stack, so the dataset's ids for those repositories are not the test
 * names sandkit's parsers give (or carry statuses the per-test lines do not say). Facts from
 * `swebench/harness/log_parsers/javascript.py` (SWE-bench v4.1.0, commit
 * 726c5461e2ef52d83cf1ea2107870a8bb3328d57):
 * - `parse_log_react_pdf` (diegomura/react-pdf, plain `jest`): one id per test FILE, from jest's
 *   `PASS <file>` / `FAIL <file>` lines, a trailing duration (`(5.2 s)`, `(80 ms)`) dropped;
 * - `parse_log_p5js` (processing/p5.js, mocha's spec reporter, FAIL_ONLY): only failures, one per
 *   entry of the numbered failure list (`  1) suite` / `       nested` / `         title:`), the
 *   title lines joined with `:` (`suite:nested:title`);
 * - `parse_log_marked` (markedjs/marked, jasmine, FAIL_ONLY): every `N) <name>` line is FAILED,
 *   and jasmine numbers its `Pending:` list like its `Failures:` list, so a pending spec is FAILED
 *   too. sandkit adds the same (a FAILED status is the conservative one under FAIL_ONLY).
 *
 * - `parse_log_karma` (preactjs/preact, karma-mocha-reporter): from the line holding
 *   `Starting browser` to the one starting `SUMMARY:`, an id is the open suites and the test's title
 *   joined with ` > `; a suite line indented deeper than the last suite line opens a suite, one
 *   indented less closes ONE suite and opens none, one indented the same changes nothing. So after
 *   a nested suite, the next top-level suite's tests keep the first suite's name
 *   (`Components > should add event listeners` for a test under `Events`); the dataset's ids
 *   have that form, so sandkit adds them beside the real names.
 *
 * sandkit reads the same lines itself, conservatively where the official parser loses a failure:
 * `parse_log_p5js` matches lazily from the first `N)` line of the whole log, so a failure marked
 * `1) title` in the per-test listing swallows the failure list's first entry (mocha prints both);
 * sandkit reads each entry of the list on its own, so every failure is kept.
 * @module
 */
import type { TestStatus } from '../instance/grade.js';

/** A jest duration, `(5.2 s)` or `(80 ms)`, as the whole of a string. */
const jestDuration = /^\([\d.]+\s*m?s\)$/;
const failureStart = /^(\s*)\d+\) (.*)$/;

type IdReader = (log: string) => Map<string, TestStatus>;

/** The parsers of the module doc, each with the reader of its ids. */
const readers: Readonly<Record<string, IdReader>> = {
  parse_log_react_pdf: (log) => jestFileStatuses(log),
  parse_log_p5js: (log) => mochaFailureList(log),
  parse_log_marked: (log) => numberedLines(log),
  parse_log_karma: (log) => karmaSuiteIds(log),
};

/** Whether {@link runnerSummaryStatuses} reads any id for `officialParser` (else it is always empty). */
export function readsRunnerSummary(officialParser: string | null): boolean {
  return officialParser !== null && Object.hasOwn(readers, officialParser);
}

/** Ids `officialParser` reads from summary lines of `log` (empty for the other parsers). */
export function runnerSummaryStatuses(log: string, officialParser: string | null): Map<string, TestStatus> {
  return readsRunnerSummary(officialParser)
    ? (readers[officialParser as string] as IdReader)(log)
    : new Map();
}

/**
 * karma-mocha-reporter's listing, with suites opened and closed by indentation as
 * `parse_log_karma` does (see the module doc). A line is `<indent><✔|✖>? <text>`; the indent of a
 * suite line is counted one short (the pattern's whitespace before the text takes one), which
 * changes no comparison between suite lines. ✔ is PASSED, ✖ FAILED, a later line wins.
 */
function karmaSuiteIds(log: string): Map<string, TestStatus> {
  const statuses = new Map<string, TestStatus>();
  const suites: string[] = [];
  let suiteIndent = -1;
  let started = false;
  for (const line of log.split('\n')) {
    if (line.startsWith('SUMMARY:')) break;
    if (!started) {
      started = line.includes('Starting browser');
      continue;
    }
    const match = /^(\s*)([✔✖])?\s([\s\S]*)$/.exec(line);
    if (match === null) continue;
    const [, indent = '', mark, text = ''] = match;
    if (mark === undefined) {
      if (indent.length === 0) continue;
      if (indent.length > suiteIndent) {
        suiteIndent = indent.length;
        suites.push(text);
      } else if (indent.length < suiteIndent) {
        suiteIndent = indent.length;
        suites.pop();
      }
      continue;
    }
    statuses.set([...suites, text].join(' > '), mark === '✔' ? 'PASSED' : 'FAILED');
  }
  return statuses;
}

/** Every `N) <name>` line (jasmine's `Failures:` and `Pending:` lists), FAILED. */
function numberedLines(log: string): Map<string, TestStatus> {
  const statuses = new Map<string, TestStatus>();
  for (const line of log.split('\n')) {
    const match = /^\d+\)\s(.*)$/.exec(line);
    if (match !== null) statuses.set((match[1] as string).trim(), 'FAILED');
  }
  return statuses;
}

/** jest's per-file result lines: `PASS ./a.test.js`, `FAIL src/b.test.js (5.2 s)`. */
function jestFileStatuses(log: string): Map<string, TestStatus> {
  const statuses = new Map<string, TestStatus>();
  for (const line of log.split('\n')) {
    const match = jestFileLine(line);
    if (match === null) continue;
    const { file, failed } = match;
    if (failed || statuses.get(file) !== 'FAILED') statuses.set(file, failed ? 'FAILED' : 'PASSED');
  }
  return statuses;
}

/**
 * `PASS|FAIL <file>` with an optional trailing duration, read without a backtracking regex (a
 * `(.+?)…\s*$` pattern is quadratic on a long run of spaces inside a line).
 */
function jestFileLine(line: string): { file: string; failed: boolean } | null {
  const word = line.slice(0, 4);
  if ((word !== 'PASS' && word !== 'FAIL') || !/^\s/.test(line.slice(4, 5))) return null;
  let file = line.slice(4).trim();
  const open = file.lastIndexOf('(');
  if (open > 0 && /\s/.test(file[open - 1] as string) && jestDuration.test(file.slice(open)))
    file = file.slice(0, open).trimEnd();
  return file === '' ? null : { file, failed: word === 'FAIL' };
}

/**
 * mocha's failure list: an entry is a `N) first` line and the lines after it, each indented deeper
 * than the one before, the last ending in `:`; its id is the trimmed lines joined with `:`.
 */
function mochaFailureList(log: string): Map<string, TestStatus> {
  const statuses = new Map<string, TestStatus>();
  const lines = log.split('\n');
  for (const [index, line] of lines.entries()) {
    const start = failureStart.exec(line);
    if (start === null) continue;
    const parts = [(start[2] as string).trim()];
    let indent = (start[1] as string).length;
    let next = index + 1;
    while (!(parts.at(-1) as string).endsWith(':') && next < lines.length) {
      const text = lines[next] as string;
      const depth = text.length - text.trimStart().length;
      if (text.trim() === '' || depth <= indent) break;
      parts.push(text.trim());
      indent = depth;
      next += 1;
    }
    const last = parts.at(-1) as string;
    if (!last.endsWith(':')) continue;
    parts[parts.length - 1] = last.slice(0, -1);
    statuses.set(parts.join(':'), 'FAILED');
  }
  return statuses;
}
