/**
 * Compares sandkit's per-test lists of one instance (FAIL_TO_PASS and PASS_TO_PASS, each split into
 * `success` and `failure` as in SWE-bench's `tests_status`, `swebench/harness/grading.py`
 * `get_eval_tests_report`) with those of the official `report.json` beside its log, and says for
 * each test that sits in a different list why, where the cause is a known one.
 * @module
 */
import type { TestListStatus } from '../instance/grade.js';
import { decodeUtf8 } from '../load/decode-utf8.js';

/** The two lists of `tests_status` that decide a verdict. */
export type GradedList = 'FAIL_TO_PASS' | 'PASS_TO_PASS';
const gradedLists: readonly GradedList[] = ['FAIL_TO_PASS', 'PASS_TO_PASS'];

/** FAIL_TO_PASS and PASS_TO_PASS of a `tests_status`, sandkit's or the official one. */
export type GradedTestLists = Record<GradedList, TestListStatus>;

/** One test that the official report and sandkit put in different lists. */
export interface TestListDifference {
  list: GradedList;
  id: string;
  /** Where the official report has it: `absent` when in neither list. */
  official: 'success' | 'failure' | 'absent';
  sandkit: 'success' | 'failure' | 'absent';
  /** The known cause, or `unexplained: …`. */
  why: string;
}

/** Whether the per-test lists agree, and each test where they do not. */
export interface TestListAgreement {
  agrees: boolean;
  differences: TestListDifference[];
}

/**
 * The FAIL_TO_PASS and PASS_TO_PASS lists of an official report entry's `tests_status`, or
 * `undefined` when it has none or they are not lists of strings (a report written with
 * `include_tests_status=False`, or by another tool).
 */
export function readOfficialTestLists(entry: Record<string, unknown>): GradedTestLists | undefined {
  const status = entry.tests_status;
  if (typeof status !== 'object' || status === null) return undefined;
  const strings = (value: unknown): string[] | undefined =>
    Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  const lists: Partial<GradedTestLists> = {};
  for (const list of gradedLists) {
    const part = (status as Record<string, unknown>)[list] as Record<string, unknown> | undefined;
    const success = strings(part?.success);
    const failure = strings(part?.failure);
    if (success === undefined || failure === undefined) return undefined;
    lists[list] = { success, failure };
  }
  return lists as GradedTestLists;
}

/**
 * Compares `sandkit`'s lists with `official`'s. `log` is the graded test_output.txt (its text, or
 * its bytes, decoded only when a difference needs explaining), searched for the known causes; `fallback` (the reasons the verdicts differ, if they do) explains a difference
 * no known cause does. Pure.
 */
export function compareTestLists(
  sandkit: GradedTestLists,
  official: GradedTestLists,
  log: string | Buffer,
  fallback: readonly string[],
): TestListAgreement {
  const differences: TestListDifference[] = [];
  for (const list of gradedLists) {
    const where = (lists: GradedTestLists, id: string) =>
      lists[list].success.includes(id) ? 'success' : lists[list].failure.includes(id) ? 'failure' : 'absent';
    const ids = new Set([...official[list].success, ...official[list].failure, ...sandkit[list].success]);
    for (const id of [...ids, ...sandkit[list].failure.filter((id) => !ids.has(id))]) {
      const theirs = where(official, id);
      const ours = where(sandkit, id);
      if (theirs === ours) continue;
      differences.push({ list, id, official: theirs, sandkit: ours, why: explain(id, log, fallback) });
    }
  }
  return { agrees: differences.length === 0, differences };
}

/** Why the official report and sandkit put `id` in different lists. */
function explain(id: string, log: string | Buffer, fallback: readonly string[]): string {
  const merged = (typeof log === 'string' ? log : decodeUtf8(log))
    .split(/\r?\n|\r/)
    .find((line) => line.includes(` ... ${id} ... `) && !line.startsWith(`${id} ... `));
  if (merged !== undefined)
    return `the log line "${merged.trim()}" holds two tests: the one before ${id} left its " ... " open (an erroring subtest prints its result later), so parse_log_django reads the whole line as one id and never sees ${id}, which sandkit reads from that line`;
  return fallback.length > 0 ? fallback.join('; ') : 'unexplained: no known cause found in the log';
}
