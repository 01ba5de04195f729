/**
 * Grades one instance the way SWE-bench's `swebench/harness/grading.py` does
 * (`get_eval_tests_report`, `get_resolution_status`; v4.1.0, commit
 * 726c5461e2ef52d83cf1ea2107870a8bb3328d57): a listed test succeeds when it PASSED (or XFAIL); a
 * test missing from the log, FAILED or ERROR is a failure. Resolved = every FAIL_TO_PASS and every
 * PASS_TO_PASS test succeeded. For FAIL_ONLY repositories (`FAIL_ONLY_REPOS`) only a FAILED status
 * fails a test.
 *
 * Where sandkit departs from it, conservatively: the official grader puts a SKIPPED test in neither
 * list (so an all-skipped FAIL_TO_PASS list resolves); sandkit counts a skipped FAIL_TO_PASS test as
 * a failure (named in `skippedFailToPass`) and a skipped PASS_TO_PASS test as a success.
 *
 * Ids are looked up first in the official form (see `../grade/official-ids.ts`), then as printed
 * whole. A listed id missing from both but a prefix of a logged id (or the other way round) is still
 * a failure, flagged in `prefixMatches`.
 * @module
 */

/** A test's status, as SWE-bench names them. */
export type TestStatus = 'PASSED' | 'FAILED' | 'SKIPPED' | 'ERROR' | 'XFAIL';

/** Successes and failures of one of SWE-bench's four lists. */
export interface TestListStatus {
  success: string[];
  failure: string[];
}

/** SWE-bench's `tests_status` object. FAIL_TO_FAIL and PASS_TO_FAIL stay empty (SWE-bench does not compute them by default). */
export interface TestsStatus {
  FAIL_TO_PASS: TestListStatus;
  PASS_TO_PASS: TestListStatus;
  FAIL_TO_FAIL: TestListStatus;
  PASS_TO_FAIL: TestListStatus;
}

/** A listed test id that is absent from the log but shares a prefix with logged ids. */
export interface PrefixMatch {
  list: 'FAIL_TO_PASS' | 'PASS_TO_PASS';
  test: string;
  /** Logged ids that the listed id is a prefix of, or that are a prefix of it. */
  logged: string[];
}

/** The grade of one instance. */
export interface Grade {
  resolved: boolean;
  tests_status: TestsStatus;
  /** Listed tests that never appeared in the log (each counted as a failure). */
  missing: string[];
  prefixMatches: PrefixMatch[];
  /** FAIL_TO_PASS tests that were SKIPPED (sandkit: failure; the official grader: neither list). */
  skippedFailToPass: string[];
}

/** Grading options. */
export interface GradeOptions {
  /** SWE-bench's FAIL_ONLY evaluation: only a FAILED status fails a listed test. @default false */
  failOnly?: boolean;
  /** Statuses by the ids as printed whole, looked up when the official form has no entry. @default none */
  fullStatuses?: ReadonlyMap<string, TestStatus>;
}

/** Grades `statuses` (test id → status) against the instance's FAIL_TO_PASS and PASS_TO_PASS lists. */
export function gradeTests(
  statuses: ReadonlyMap<string, TestStatus>,
  lists: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
  options: GradeOptions = {},
): Grade {
  const missing: string[] = [];
  const prefixMatches: PrefixMatch[] = [];
  const skippedFailToPass: string[] = [];
  const lookup = (test: string): TestStatus | undefined =>
    statuses.get(test) ?? options.fullStatuses?.get(test);
  const grade = (list: 'FAIL_TO_PASS' | 'PASS_TO_PASS', ok: readonly TestStatus[]): TestListStatus => {
    const out: TestListStatus = { success: [], failure: [] };
    for (const test of lists[list]) {
      const status = lookup(test);
      if (options.failOnly) {
        if (status === 'FAILED') out.failure.push(test);
        else out.success.push(test);
      } else if (status !== undefined && ok.includes(status)) out.success.push(test);
      else out.failure.push(test);
      if (status === 'SKIPPED' && list === 'FAIL_TO_PASS' && !options.failOnly) skippedFailToPass.push(test);
      if (status !== undefined) continue;
      missing.push(test);
      const logged = [...statuses.keys()].filter((id) => id.startsWith(test) || test.startsWith(id)).sort();
      if (logged.length > 0) prefixMatches.push({ list, test, logged });
    }
    return out;
  };
  const tests_status: TestsStatus = {
    FAIL_TO_PASS: grade('FAIL_TO_PASS', ['PASSED', 'XFAIL']),
    PASS_TO_PASS: grade('PASS_TO_PASS', ['PASSED', 'XFAIL', 'SKIPPED']),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
  const resolved =
    tests_status.FAIL_TO_PASS.failure.length === 0 && tests_status.PASS_TO_PASS.failure.length === 0;
  return { resolved, tests_status, missing, prefixMatches, skippedFailToPass };
}

/** Normalises a parser's status word (`passed`, `PASS`, `ok`, `xfailed`, …) to a {@link TestStatus}. */
export function toTestStatus(word: string): TestStatus {
  const w = word.toUpperCase();
  if (w === 'PASSED' || w === 'PASS' || w === 'OK' || w === 'XPASS' || w === 'XPASSED') return 'PASSED';
  if (w === 'XFAIL' || w === 'XFAILED') return 'XFAIL';
  if (w === 'SKIPPED' || w === 'SKIP' || w === 'IGNORED' || w === 'PENDING' || w === 'TODO') return 'SKIPPED';
  if (w === 'ERROR' || w === 'ERRORED') return 'ERROR';
  return 'FAILED';
}
