/**
 * Compares sandkit's per-test lists of one instance (FAIL_TO_PASS and PASS_TO_PASS, each split into
 * `success` and `failure` as in SWE-bench's `tests_status`, `swebench/harness/grading.py`
 * `get_eval_tests_report`) with those of the official `report.json` beside its log, and says for
 * each test that sits in a different list why, where the cause is a known one.
 * @module
 */
import type { TestListStatus } from '../instance/grade.js';
import { mergedDjangoLines } from './merged-django-lines.js';

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
 * A reason the verdicts differ, as the per-test comparison uses it: one that names the tests it is
 * about (`ids`) explains only those, in the words of `one`; one without `ids` explains any test.
 */
export interface VerdictReason {
  /** The reason as `official.reasons` records it. */
  text: string;
  /** The tests it names; absent: it is about the whole log. */
  ids?: ReadonlySet<string>;
  /** What it says of one of `ids` (the reason without its list). @default `text` */
  one?: string;
}

/**
 * Compares `sandkit`'s lists with `official`'s. `log` is the graded test_output.txt (its text, or
 * its bytes), searched once for the known causes; `fallback` (the reasons the verdicts differ, if
 * they do) explains a difference no known cause does: a plain string or a reason without `ids`
 * explains every such test, a reason with `ids` only those it names, so that what is written per
 * test never repeats a list of other tests. Pure; linear in the lists' lengths and the log's.
 */
export function compareTestLists(
  sandkit: GradedTestLists,
  official: GradedTestLists,
  log: string | Buffer,
  fallback: readonly (string | VerdictReason)[],
): TestListAgreement {
  const moved: Array<Omit<TestListDifference, 'why'>> = [];
  for (const list of gradedLists) {
    const theirs = placeOf(official[list]);
    const ours = placeOf(sandkit[list]);
    const ids = new Set([...official[list].success, ...official[list].failure, ...sandkit[list].success]);
    for (const id of [...ids, ...sandkit[list].failure.filter((id) => !ids.has(id))]) {
      const where = { official: theirs.get(id) ?? 'absent', sandkit: ours.get(id) ?? 'absent' } as const;
      if (where.official !== where.sandkit) moved.push({ list, id, ...where });
    }
  }
  if (moved.length === 0) return { agrees: true, differences: [] };
  const merged = mergedDjangoLines(log, new Set(moved.map((one) => one.id)));
  const reasons = fallback.map((reason) => (typeof reason === 'string' ? { text: reason } : reason));
  const differences = moved.map((one) => ({ ...one, why: explain(one.id, merged, reasons) }));
  return { agrees: false, differences };
}

/** Where each test of `lists` is: `success` where it is in both (as a search of `success` first finds it). */
function placeOf(lists: TestListStatus): Map<string, 'success' | 'failure'> {
  const place = new Map<string, 'success' | 'failure'>();
  for (const id of lists.failure) place.set(id, 'failure');
  for (const id of lists.success) place.set(id, 'success');
  return place;
}

/** Why the official report and sandkit put `id` in different lists. */
function explain(id: string, merged: ReadonlyMap<string, string>, reasons: readonly VerdictReason[]): string {
  const line = merged.get(id);
  if (line !== undefined)
    return `the log line "${line}" holds two tests: the one before ${id} left its " ... " open (an erroring subtest prints its result later), so parse_log_django reads the whole line as one id and never sees ${id}, which sandkit reads from that line`;
  const why = reasons
    .filter((reason) => reason.ids === undefined || reason.ids.has(id))
    .map((reason) => (reason.ids === undefined ? reason.text : (reason.one ?? reason.text)));
  if (why.length > 0) return why.join('; ');
  return reasons.length > 0
    ? `unexplained: the verdicts differ for reasons that name other tests (${reasons.map((reason) => reason.one ?? reason.text).join('; ')})`
    : 'unexplained: no known cause found in the log';
}
