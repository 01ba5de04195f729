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
  /** The logged ids, sorted once the first listed test is found missing. */
  let sorted: string[] | undefined;
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
      sorted ??= [...statuses.keys()].sort();
      const logged = prefixRelatives(sorted, test);
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

/**
 * The ids of `sorted` (ascending, as `Array.prototype.sort` orders strings, no duplicates) that
 * start with `test` or that `test` starts with, ascending: `sorted.filter((id) => id.startsWith(test)
 * || test.startsWith(id))` in O(log n) searches per id found (plus one per shorter common prefix),
 * instead of a pass over every logged id for each missing one (5,000 missing of 5,000 logged:
 * 25 M comparisons).
 */
export function prefixRelatives(sorted: readonly string[], test: string): string[] {
  // Ids that `test` starts with sort before it; each step finds one, or a shorter common prefix.
  const prefixes: string[] = [];
  let below = lowerBound(sorted, test) - 1;
  while (below >= 0) {
    const id = sorted[below] as string;
    const common = commonPrefixLength(id, test);
    if (common === id.length) {
      prefixes.push(id);
      below--;
      continue;
    }
    // Every other id that `test` starts with is a prefix of test[0, common): none sorts after it.
    below = lowerBound(sorted, test.slice(0, common) + '\u0000') - 1;
    if (common === 0) {
      if (below >= 0 && sorted[below] === '') prefixes.push('');
      break;
    }
  }
  const relatives = prefixes.reverse();
  // Ids that start with `test` sort from it on, together.
  for (let at = lowerBound(sorted, test); at < sorted.length; at++) {
    const id = sorted[at] as string;
    if (!id.startsWith(test)) break;
    relatives.push(id);
  }
  return relatives;
}

/** The first index of `sorted` whose id is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many leading UTF-16 code units `a` and `b` share. */
function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
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
