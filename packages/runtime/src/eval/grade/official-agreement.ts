/**
 * Whether sandkit's verdict on a log agrees with the official `report.json` beside it, and why not.
 * The reasons name the known places where the official grader and sandkit part ways (see
 * `grade-log.ts` and `official-ids.ts`).
 * @module
 */
import type { PatchMethod } from '../instance/patch-step.js';
import type { LogGrade } from './grade-log.js';
import {
  compareTestLists,
  type GradedTestLists,
  readOfficialTestLists,
  type TestListAgreement,
  type VerdictReason,
} from './official-test-lists.js';

/** The official per-instance report's fields sandkit reads. */
export interface OfficialReport {
  resolved: boolean;
  patch_successfully_applied: boolean;
  /** FAIL_TO_PASS and PASS_TO_PASS of its `tests_status`; absent when the report has none. */
  testLists?: GradedTestLists;
}

/** The comparison recorded in `results.jsonl` and summary.md. */
export interface OfficialAgreement {
  /** The official verdict. */
  resolved: boolean;
  agrees: boolean;
  /** Why the verdicts differ (empty when they agree). */
  reasons: string[];
  /**
   * Test by test: whether sandkit's FAIL_TO_PASS / PASS_TO_PASS success and failure lists are the
   * official report's, and why each test that is not in the same list is not; absent when the
   * official report has no `tests_status`.
   */
  tests?: TestListAgreement;
}

/** What a `report.json` beside a log turned out to be. */
export type ReportBeside =
  | { kind: 'official'; report: OfficialReport }
  /**
   * Written by `sandkit eval` (its `--out` has the same layout): not an official verdict.
   * `patchAppliedWith`: the step of the patch chain that applied the model patch, from its
   * `patch_applied_with` (absent when the entry has none, or not one of {@link PatchMethod}).
   */
  | { kind: 'sandkit'; patchAppliedWith?: PatchMethod }
  /** Not JSON, or no usable entry for the instance; `problem` says which. */
  | { kind: 'malformed'; problem: string };

/**
 * Reads a `report.json` text (`{ "<instance_id>": { resolved, … } }`, the official per-instance
 * report). It is sandkit's own when `besideSandkitLog` (an `eval.log`, which only sandkit writes,
 * sits beside it; the official harness writes `run_instance.log`) or when its entry carries
 * sandkit's `patch_applied_with`.
 */
export function readOfficialReport(
  text: string,
  instanceId: string,
  besideSandkitLog: boolean,
): ReportBeside {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { kind: 'malformed', problem: `is not JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { kind: 'malformed', problem: `is not an object keyed by instance id` };
  const entry = (parsed as Record<string, unknown>)[instanceId];
  if (typeof entry !== 'object' || entry === null) {
    const keys = Object.keys(parsed).slice(0, 3);
    return {
      kind: 'malformed',
      problem: `holds no entry for ${instanceId}${keys.length === 0 ? '' : ` (it has ${keys.join(', ')})`}`,
    };
  }
  const fields = entry as Partial<OfficialReport> & { patch_applied_with?: unknown };
  if (besideSandkitLog || fields.patch_applied_with !== undefined)
    return isPatchMethod(fields.patch_applied_with)
      ? { kind: 'sandkit', patchAppliedWith: fields.patch_applied_with }
      : { kind: 'sandkit' };
  if (typeof fields.resolved !== 'boolean')
    return { kind: 'malformed', problem: `has no true/false "resolved" for ${instanceId}` };
  const testLists = readOfficialTestLists(entry as Record<string, unknown>);
  return {
    kind: 'official',
    report: {
      resolved: fields.resolved,
      patch_successfully_applied: fields.patch_successfully_applied === true,
      ...(testLists === undefined ? {} : { testLists }),
    },
  };
}

/**
 * Compares `graded` (sandkit's grade of `log`, its text or its bytes) with `official`: the verdict, and, when the official
 * report has its `tests_status`, test by test.
 */
export function compareWithOfficial(
  graded: LogGrade,
  official: OfficialReport,
  lists: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
  officialParser: string | null,
  log: string | Buffer,
): OfficialAgreement {
  const agrees = graded.resolved === official.resolved;
  const why = agrees ? [] : verdictReasons(graded, official, lists, officialParser);
  const reasons = why.map((reason) => reason.text);
  const agreement: OfficialAgreement = { resolved: official.resolved, agrees, reasons };
  if (official.testLists !== undefined)
    agreement.tests = compareTestLists(graded.grade.tests_status, official.testLists, log, why);
  return agreement;
}

/**
 * Why sandkit's verdict on a log is not the official one: the known causes found, each with the
 * tests it names (see {@link VerdictReason}). Linear in the lists' lengths.
 */
function verdictReasons(
  graded: LogGrade,
  official: OfficialReport,
  lists: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
  officialParser: string | null,
): VerdictReason[] {
  const reasons: VerdictReason[] = [];
  /** A reason naming `ids`: `${label}: ${ids}` in the verdict's reasons, `one` (or `label`) for one of them. */
  const naming = (label: string, ids: readonly string[], one = label): void => {
    if (ids.length > 0) reasons.push({ text: `${label}: ${ids.join(', ')}`, ids: new Set(ids), one });
  };
  if (graded.testPatchFailed)
    reasons.push({
      text: `test patch failed to apply (${graded.testPatchError}); the official script ran the tests anyway`,
    });
  if (!graded.evaluated) reasons.push({ text: `sandkit: ${graded.notEvaluatedReason}` });
  if (graded.hadAnsi && officialParser !== 'parse_log_pytest_v2')
    reasons.push({
      text: 'ANSI colour in the log: the official parser reads coloured status lines as no test',
    });
  if (graded.collisions.length > 0)
    reasons.push({
      text: `ids cut at spaces: ${graded.collisions.map((c) => `${c.from.length} tests → ${JSON.stringify(c.official)}`).join(', ')} (official keeps the last status, sandkit the worst)`,
      ids: new Set(graded.collisions.map((c) => c.official)),
      one: 'an id cut at spaces, shared by several tests (official keeps the last status, sandkit the worst)',
    });
  const missing = new Set(graded.grade.missing);
  const listed = [...lists.FAIL_TO_PASS, ...lists.PASS_TO_PASS];
  naming(
    'empty-bracket id not in the log',
    listed.filter((id) => id.endsWith('[]') && missing.has(id)),
  );
  naming(
    'skipped FAIL_TO_PASS tests (sandkit: failure; official: neither list)',
    graded.grade.skippedFailToPass,
    'a skipped FAIL_TO_PASS test (sandkit: failure; official: neither list)',
  );
  const directive = graded.grade.missing.filter((id) => /\s#\s(?:SKIP|TODO)\b/i.test(id));
  naming(
    'listed ids keep a TAP directive (the official parser counts a skipped test PASSED under "<name> # SKIP …"; sandkit drops the directive)',
    directive,
  );
  if (officialParser === 'parse_log_p5js' && official.resolved && !graded.resolved) {
    const lost = [
      ...graded.grade.tests_status.FAIL_TO_PASS.failure,
      ...graded.grade.tests_status.PASS_TO_PASS.failure,
    ].filter((id) => graded.statuses.get(id) === 'FAILED');
    if (lost.length > 0)
      reasons.push({
        text: `the official parser loses failures: parse_log_p5js reads mocha's failure list from the first "N)" line of the log, so the per-test listing swallows the list's first entry (FAILED in sandkit: ${lost.join(', ')})`,
        ids: new Set(lost),
        one: `the official parser loses failures: parse_log_p5js reads mocha's failure list from the first "N)" line of the log, so the per-test listing swallows the list's first entry (FAILED in sandkit)`,
      });
  }
  const directives = new Set(directive);
  naming(
    'listed ids with spaces not in the log',
    graded.grade.missing.filter((id) => /\s/.test(id) && !directives.has(id)),
    'a listed id with spaces not in the log',
  );
  if (graded.parserMissing) reasons.push({ text: 'sandkit has no parser for this repository in this build' });
  if (reasons.length === 0)
    reasons.push({
      text: `unexplained: sandkit ${graded.resolved ? 'resolved' : 'unresolved'} (missing ${graded.grade.missing.length}, F2P failures ${graded.grade.tests_status.FAIL_TO_PASS.failure.length}, P2P failures ${graded.grade.tests_status.PASS_TO_PASS.failure.length}), official ${official.resolved ? 'resolved' : 'unresolved'}`,
    });
  return reasons;
}

const patchMethods: ReadonlySet<unknown> = new Set<PatchMethod>([
  'git apply',
  'git apply --reject',
  'patch --fuzz=5',
  'patch',
  'none',
]);

/** Whether `value` names a step of sandkit's patch chain (`patch_applied_with` of its report.json). */
function isPatchMethod(value: unknown): value is PatchMethod {
  return patchMethods.has(value);
}
