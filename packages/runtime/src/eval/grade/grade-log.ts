/**
 * Grades one evaluation log in the official layout (`test_output.txt`: the evaluation script's
 * output with the test command's between `>>>>> Start Test Output` and `>>>>> End Test Output`),
 * as `get_logs_eval` / `get_eval_report` in `swebench/harness/grading.py` read it (SWE-bench v4.1.0,
 * commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57), with sandkit's departures named:
 * - a log holding `>>>>> Patch Apply Failed`, `>>>>> Reset Failed`, `>>>>> Tests Errored` or
 *   `>>>>> Tests Timed Out`, or missing a marker, was not evaluated (`patch_successfully_applied`
 *   false), as upstream;
 * - the text between the markers is parsed (the whole log when that yields nothing, as upstream),
 *   with ANSI colour stripped first (upstream strips it only for pytest_v2 repositories);
 * - ids are re-keyed to the official form (`official-ids.ts`), and for the parsers whose ids come
 *   from summary lines (react-pdf's test files, p5.js's failure list) those ids are added
 *   (`runner-summary-ids.ts`; a test in both keeps the worse status);
 * - a test patch that did not apply (`git apply` printed `error: …` before the start marker, or
 *   sandkit's own marker) is never resolved, even with an empty FAIL_TO_PASS list; the official
 *   script runs the tests anyway and may resolve it.
 * @module
 */
import type { ErrorKind } from '../instance/error-kind.js';
import {
  endTestOutput,
  outputCutMarker,
  startTestOutput,
  testPatchFailedMarker,
} from '../instance/eval-markers.js';
import { type Grade, gradeTests, type TestStatus } from '../instance/grade.js';
import { isTestFramework, parseTestStatuses, stripAnsi } from '../instance/parse-test-statuses.js';
import { type IdCollision, officialIdForm, officialStatuses, worseStatus } from './official-ids.js';
import { readsRunnerSummary, runnerSummaryStatuses } from './runner-summary-ids.js';

/** The official "bad codes" that mark a log as not evaluated, and the error kind each stands for. */
const badCodes: ReadonlyArray<readonly [string, NotEvaluatedKind]> = [
  ['>>>>> Patch Apply Failed', 'patch_apply'],
  ['>>>>> Reset Failed', 'repo'],
  ['>>>>> Tests Errored', 'internal'],
  ['>>>>> Tests Timed Out', 'timeout'],
];

/** Why a log was not evaluated, as an {@link ErrorKind}. */
export type NotEvaluatedKind = Extract<
  ErrorKind,
  'patch_apply' | 'repo' | 'internal' | 'timeout' | 'incomplete_log'
>;

/** How to read one log. */
export interface GradeLogInput {
  /** Our parser (`parseTestOutput` framework name). */
  parser: string;
  /** The official parser function (`parse_log_pytest`, …), `null` outside the spec table. */
  officialParser: string | null;
  failOnly: boolean;
  FAIL_TO_PASS: readonly string[];
  PASS_TO_PASS: readonly string[];
}

/** What {@link gradeLog} found. */
export interface LogGrade {
  /** `false` when the log shows the evaluation never got to the tests (see the module doc). */
  evaluated: boolean;
  /** Why `evaluated` is false. */
  notEvaluatedReason: string | null;
  /**
   * The error kind of that reason: `patch_apply` for `>>>>> Patch Apply Failed`, `repo` for
   * `Reset Failed`, `internal` for `Tests Errored`, `timeout` for `Tests Timed Out`, and
   * `incomplete_log` for a missing Start or End marker; `null` when evaluated.
   */
  notEvaluatedKind: NotEvaluatedKind | null;
  /** The test patch did not apply: never resolved. */
  testPatchFailed: boolean;
  /** The first `error:` line of the failed test patch. */
  testPatchError: string | null;
  /** The log held ANSI escape sequences (stripped before parsing). */
  hadAnsi: boolean;
  /** Our parser's name is not available in this build of `@sandkit/tools`. */
  parserMissing: boolean;
  /** Statuses by official id. */
  statuses: Map<string, TestStatus>;
  collisions: IdCollision[];
  grade: Grade;
  /** `grade.resolved`, forced to `false` when the log was not evaluated or the test patch failed. */
  resolved: boolean;
}

/**
 * Grades `log` (see the module doc). Its line ends are read as Python's text mode reads them
 * (`open(log_fp)` in `get_logs_eval`): `\r\n` and a lone `\r` end a line, so a log written with
 * CRLF grades as the official harness grades it. Pure; never throws.
 */
export function gradeLog(raw: string, input: GradeLogInput): LogGrade {
  const log = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  const where = locateTestOutput(log);
  const { start, end } = where;
  const hadAnsi = log.includes('\x1b') && /\x1b[[\]]/.test(log);
  let full = new Map<string, TestStatus>();
  let summary = new Map<string, TestStatus>();
  let parserMissing = false;
  if (where.notEvaluatedReason === null) {
    const section = stripAnsi(log.slice(start + startTestOutput.length, end));
    let stripped: string | undefined;
    const wholeLog = (): string => {
      stripped ??= stripAnsi(log);
      return stripped;
    };
    if (readsRunnerSummary(input.officialParser)) {
      summary = runnerSummaryStatuses(section, input.officialParser);
      if (summary.size === 0) summary = runnerSummaryStatuses(wholeLog(), input.officialParser);
    }
    const parser = input.parser;
    if (isTestFramework(parser)) {
      full = parseTestStatuses(section, parser);
      if (full.size === 0) full = parseTestStatuses(wholeLog(), parser);
    } else parserMissing = true;
  }
  const before = start < 0 ? log : log.slice(0, start);
  return logGrade(where, { before, hadAnsi, parserMissing, full, summary }, input);
}

/** Text that {@link locateTestOutput} searches: a log as a string, or its UTF-8 bytes. */
export type SearchableLog = string | Buffer;

/** Where a log's test output is, and why it was not evaluated. */
export interface TestOutputPlace {
  /** Index of the start marker (in the string, or the bytes, searched), -1 when absent. */
  start: number;
  /** Index of the end marker after it, -1 when absent. */
  end: number;
  notEvaluatedReason: string | null;
  notEvaluatedKind: NotEvaluatedKind | null;
}

/**
 * The markers and bad codes of `log` (with `\n` line ends). The markers and codes are ASCII, so
 * the UTF-8 bytes of a log give the same answers as its text, at byte indexes.
 */
export function locateTestOutput(log: SearchableLog): TestOutputPlace {
  const start = log.indexOf(startTestOutput);
  const end = start < 0 ? -1 : log.indexOf(endTestOutput, start);
  const bad = badCodes.find(([code]) => log.includes(code));
  const cut = outputCutReason(log);
  const notEvaluatedReason =
    cut !== null
      ? cut
      : bad !== undefined
        ? `the log holds "${bad[0]}"`
        : start < 0 || end < 0
          ? `the log has no "${start < 0 ? startTestOutput : endTestOutput}" marker: ${start < 0 ? 'the tests never started (or this is not an evaluation log)' : 'the log was cut during the tests'}`
          : null;
  const notEvaluatedKind: NotEvaluatedKind | null =
    cut === null && bad !== undefined ? bad[1] : notEvaluatedReason === null ? null : 'incomplete_log';
  return { start, end, notEvaluatedReason, notEvaluatedKind };
}

/** The reason on the line of sandkit's {@link outputCutMarker} (a head sandkit cut and did not grade), `null` without one. */
function outputCutReason(log: SearchableLog): string | null {
  const at = log.lastIndexOf(`\n${outputCutMarker}`);
  if (at < 0) return null;
  const from = at + 1 + outputCutMarker.length;
  const to = log.indexOf('\n', from);
  const end = to < 0 ? log.length : to;
  return typeof log === 'string' ? log.slice(from, end) : log.toString('utf8', from, end);
}

/** What was read from a log, for {@link logGrade}. */
export interface LogReading {
  /** The text before the start marker (the whole log without one). */
  before: string;
  hadAnsi: boolean;
  parserMissing: boolean;
  /** Statuses by whole id (empty when not evaluated). */
  full: Map<string, TestStatus>;
  /** Statuses read from runner summary lines (`runner-summary-ids.ts`; empty for most parsers). */
  summary: Map<string, TestStatus>;
}

/** The {@link LogGrade} of a log read into `reading`, its test output at `where`. */
export function logGrade(where: TestOutputPlace, reading: LogReading, input: GradeLogInput): LogGrade {
  const { full, summary, parserMissing } = reading;
  const testPatchError = findTestPatchError(reading.before);
  const official = officialStatuses(full, officialIdForm(input.officialParser, input.parser));
  for (const [id, status] of summary)
    official.statuses.set(id, worseStatus(official.statuses.get(id), status));
  const grade = gradeTests(official.statuses, input, { failOnly: input.failOnly, fullStatuses: full });
  const evaluated = where.notEvaluatedReason === null;
  return {
    evaluated,
    notEvaluatedReason: where.notEvaluatedReason,
    notEvaluatedKind: where.notEvaluatedKind,
    testPatchFailed: testPatchError !== null,
    testPatchError,
    hadAnsi: reading.hadAnsi,
    parserMissing,
    statuses: official.statuses,
    collisions: official.collisions,
    grade,
    resolved: evaluated && testPatchError === null && !parserMissing && grade.resolved,
  };
}

/**
 * The first error of the test patch's `git apply` before the start marker: sandkit's marker, or a
 * git `error:` line after a `git apply` line (a failed `git checkout` of a file the test patch
 * creates, `error: pathspec …`, is expected and ignored).
 */
function findTestPatchError(before: string): string | null {
  const lines = before.split('\n');
  const marker = lines.findIndex((line) => line.startsWith(testPatchFailedMarker));
  let applying = false;
  for (const [index, raw] of lines.entries()) {
    const line = stripAnsi(raw).trim();
    if (/\bgit apply\b/.test(line)) applying = true;
    if ((applying || marker >= 0) && line.startsWith('error: ') && !line.startsWith('error: pathspec'))
      return line;
    if (index === marker) return 'the test patch did not apply';
  }
  return null;
}
