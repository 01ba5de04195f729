/**
 * The run report (SWE-bench's `make_run_report` shape, `schema_version` 2, plus sandkit's
 * fields) and `summary.md`.
 * @module
 */
import { type InstanceResult, isInfraError } from '../instance/eval-result.js';
import type { RecordError } from '../load/read-records.js';

/** The run report. The first block of fields is SWE-bench's; the rest is sandkit's. */
export interface RunReport {
  total_instances: number;
  submitted_instances: number;
  /** Resolved + unresolved: instances that were graded. */
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  completed_ids: string[];
  /** Instances with no prediction, or not finished (interrupted run). */
  incomplete_ids: string[];
  empty_patch_ids: string[];
  submitted_ids: string[];
  resolved_ids: string[];
  unresolved_ids: string[];
  error_ids: string[];
  schema_version: 2;
  /** Errors that are neither the model's doing nor the dataset's (sandbox, repository, test patch, timeout). */
  infra_error_ids: string[];
  /** Errors where the model patch did not apply. */
  patch_apply_error_ids: string[];
  /** Rows of the dataset (or their predictions) that could not be used, skipped by `--skip-invalid`: counted in the total. */
  dataset_error_ids: string[];
  /** resolved / (total − infrastructure errors), 0 when nothing counts. */
  resolved_rate: number;
  /** Records of the dataset or predictions that could not be used. */
  invalid_records: RecordError[];
  /** `true` when the run was interrupted before every instance finished. */
  interrupted: boolean;
  /** `sandkit eval` only: the order the instances started in (`dataset` or `longest-first`) and why. */
  schedule?: { order: 'dataset' | 'longest-first'; reason: string };
}

/** Everything the report is built from. */
export interface RunReportInput {
  /** Instance ids in dataset order (after `--instance-ids`). */
  instanceIds: readonly string[];
  /** Ids that have a prediction. */
  submittedIds: readonly string[];
  /** Finished instances, by id. */
  results: ReadonlyMap<string, InstanceResult>;
  invalidRecords: readonly RecordError[];
  interrupted: boolean;
  /** The order `sandkit eval` started the instances in, and why. @default absent (not said) */
  schedule?: { order: 'dataset' | 'longest-first'; reason: string };
}

/** What {@link buildRunReport} reads of a result. */
export type ReportedResult = Pick<InstanceResult, 'instance_id' | 'status' | 'error_kind'>;

/**
 * Builds the run report. Ids are sorted as SWE-bench sorts them. Of each result only its id, status
 * and error kind are read, so a caller that streams its results keeps only those.
 */
export function buildRunReport(
  input: Omit<RunReportInput, 'results'> & { results: ReadonlyMap<string, ReportedResult> },
): RunReport {
  const ids = (status: ReportedResult['status']) =>
    [...input.results.values()]
      .filter((r) => r.status === status)
      .map((r) => r.instance_id)
      .sort();
  const resolved = ids('resolved');
  const unresolved = ids('unresolved');
  const errors = [...input.results.values()].filter((r) => r.status === 'error');
  const infra = errors
    .filter((r) => r.error_kind === undefined || isInfraError(r.error_kind))
    .map((r) => r.instance_id)
    .sort();
  const counted = input.instanceIds.length - infra.length;
  return {
    total_instances: input.instanceIds.length,
    submitted_instances: input.submittedIds.length,
    completed_instances: resolved.length + unresolved.length,
    resolved_instances: resolved.length,
    unresolved_instances: unresolved.length,
    empty_patch_instances: ids('empty_patch').length,
    error_instances: errors.length,
    completed_ids: [...resolved, ...unresolved].sort(),
    incomplete_ids: input.instanceIds.filter((id) => !input.results.has(id)).sort(),
    empty_patch_ids: ids('empty_patch'),
    submitted_ids: [...input.submittedIds].sort(),
    resolved_ids: resolved,
    unresolved_ids: unresolved,
    error_ids: errors.map((r) => r.instance_id).sort(),
    schema_version: 2,
    infra_error_ids: infra,
    patch_apply_error_ids: errors
      .filter((r) => r.error_kind === 'patch_apply')
      .map((r) => r.instance_id)
      .sort(),
    dataset_error_ids: errors
      .filter((r) => r.error_kind === 'dataset')
      .map((r) => r.instance_id)
      .sort(),
    resolved_rate: counted > 0 ? resolved.length / counted : 0,
    invalid_records: [...input.invalidRecords],
    interrupted: input.interrupted,
    ...(input.schedule === undefined ? {} : { schedule: { ...input.schedule } }),
  };
}

/**
 * `summary.md`: the counts, the resolved rate, and one table row per instance in dataset order.
 * When any result carries an official verdict (`sandkit grade`), a column says whether sandkit
 * agrees with it and why not. The same text as {@link summaryHead}, {@link summaryRow} for each of
 * `input.instanceIds` and {@link summaryTail}, each line followed by a newline.
 */
export function formatSummary(
  report: RunReport,
  input: RunReportInput,
  title = 'sandkit eval summary',
): string {
  const official = tallyOfficial(input.results.values());
  const submitted = new Set(input.submittedIds);
  const lines = [
    ...summaryHead(report, input, title, official),
    ...input.instanceIds.map((id) =>
      summaryRow(id, input.results.get(id), submitted.has(id), official !== null),
    ),
    ...summaryTail(report),
  ];
  return `${lines.join('\n')}\n`;
}

/** How the results that carry an official verdict compare with it (`summary.md`'s official line). */
export interface OfficialTally {
  /** Results with an official verdict. */
  compared: number;
  /** Of those, the ones whose verdict agrees. */
  agree: number;
  /** Results whose official report lists the tests. */
  listed: number;
  /** Of those, the ones with the same lists. */
  sameLists: number;
}

/** Adds `result` to `tally` (made when the first result with an official verdict comes); `null` stays `null` without one. */
export function addToTally(
  tally: OfficialTally | null,
  result: Pick<InstanceResult, 'official'>,
): OfficialTally | null {
  if (result.official === undefined) return tally;
  const sum = tally ?? { compared: 0, agree: 0, listed: 0, sameLists: 0 };
  sum.compared++;
  if (result.official.agrees) sum.agree++;
  if (result.official.tests !== undefined) {
    sum.listed++;
    if (result.official.tests.agrees) sum.sameLists++;
  }
  return sum;
}

/** The {@link OfficialTally} of `results`; `null` when none carries an official verdict (no official column). */
export function tallyOfficial(results: Iterable<InstanceResult>): OfficialTally | null {
  let tally: OfficialTally | null = null;
  for (const result of results) tally = addToTally(tally, result);
  return tally;
}

/**
 * `summary.md`'s lines before the instance rows: title, counts, resolved rate, dataset errors,
 * schedule, the official line when `official` is not `null`, and the table's header.
 */
export function summaryHead(
  report: RunReport,
  input: Pick<RunReportInput, 'schedule'>,
  title: string,
  official: OfficialTally | null,
): string[] {
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const withOfficial = official !== null;
  const lines = [
    `# ${title}`,
    '',
    report.interrupted ? '**The run was interrupted**; `--resume` finishes it.\n' : '',
    '| total | submitted | completed | resolved | unresolved | empty patch | errors (patch did not apply) | errors (infrastructure) | incomplete |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${report.total_instances} | ${report.submitted_instances} | ${report.completed_instances} | ${report.resolved_instances} | ${report.unresolved_instances} | ${report.empty_patch_instances} | ${report.patch_apply_error_ids.length} | ${report.infra_error_ids.length} | ${report.incomplete_ids.length} |`,
    '',
    `Resolved: ${report.resolved_instances} of ${report.total_instances} (${pct(report.total_instances > 0 ? report.resolved_instances / report.total_instances : 0)} of all instances; ${pct(report.resolved_rate)} leaving out ${report.infra_error_ids.length} infrastructure errors).`,
    '',
    report.dataset_error_ids.length === 0
      ? ''
      : `Dataset errors: ${report.dataset_error_ids.length} row(s) could not be used and were skipped (--skip-invalid), counted in the total as errors: ${escapeCell(report.dataset_error_ids.join(', '))}.\n`,
    input.schedule === undefined ? '' : `Schedule: ${escapeCell(input.schedule.reason)}.\n`,
  ];
  if (official !== null) {
    const { compared, agree, listed, sameLists } = official;
    lines.push(
      `Official report.json beside ${compared} log(s): sandkit agrees on ${agree}, differs on ${compared - agree}.${listed === 0 ? '' : ` Test by test (${listed} report(s) list them): the same FAIL_TO_PASS / PASS_TO_PASS success and failure lists on ${sameLists}, other lists on ${listed - sameLists}.`}`,
      '',
    );
  }
  lines.push(
    `| instance | status | FAIL_TO_PASS | PASS_TO_PASS | patch applied with | time (s) | note |${withOfficial ? ' official report |' : ''}`,
    `|---|---|---:|---:|---|---:|---|${withOfficial ? '---|' : ''}`,
  );
  return withoutRepeatedBlanks(lines);
}

/**
 * `summary.md`'s table row of instance `id` (one line): its result, or `not finished` (`submitted`)
 * / `no prediction` without one; `withOfficial` adds the official report's column.
 */
export function summaryRow(
  id: string,
  r: InstanceResult | undefined,
  submitted: boolean,
  withOfficial: boolean,
): string {
  if (r === undefined)
    return `| ${id} | ${submitted ? 'not finished' : 'no prediction'} | | | | | |${withOfficial ? ' |' : ''}`;
  const graded = r.status === 'resolved' || r.status === 'unresolved';
  const frac = (part?: { success: number; total: number }) =>
    part === undefined || !graded ? '' : `${part.success}/${part.total}`;
  const note = [
    r.error_kind === undefined ? '' : `${r.error_kind}: ${firstLine(r.error ?? '')}`,
    r.skipped_binary_files?.length ? `skipped binary: ${r.skipped_binary_files.join(', ')}` : '',
    r.prefix_matches?.length ? `${r.prefix_matches.length} id(s) match only by prefix` : '',
    r.tests_timed_out ? 'tests timed out' : '',
    r.id_collisions?.length
      ? `${r.id_collisions.length} official id(s) shared by several tests (graded by the worst)`
      : '',
    r.skipped_fail_to_pass?.length ? `${r.skipped_fail_to_pass.length} FAIL_TO_PASS skipped (failure)` : '',
    ...(r.grade_notes ?? []),
  ].filter((part) => part !== '');
  const seconds = r.duration_ms === undefined ? '' : (r.duration_ms / 1000).toFixed(1);
  const row = `| ${id} | ${r.status} | ${frac(r.f2p)} | ${frac(r.p2p)} | ${r.patch_method ?? ''} | ${seconds} | ${escapeCell(note.join('; '))} |`;
  if (!withOfficial) return row;
  const moved = r.official?.tests?.differences ?? [];
  const official =
    r.official === undefined
      ? ''
      : r.official.agrees
        ? `agrees (${r.official.resolved ? 'resolved' : 'unresolved'})${moved.length === 0 ? '' : `; ${moved.length} test(s) in other lists: ${moved.map((d) => `${d.id} (official ${d.official}, sandkit ${d.sandkit})`).join(', ')}`}`
        : `differs: official ${r.official.resolved ? 'resolved' : 'unresolved'}; ${r.official.reasons.join('; ')}`;
  return `${row} ${escapeCell(official)} |`;
}

/** `summary.md`'s lines after the instance rows: the invalid records, if any (else none). */
export function summaryTail(report: RunReport): string[] {
  if (report.invalid_records.length === 0) return [];
  return withoutRepeatedBlanks([
    '',
    '## Invalid records',
    '',
    ...report.invalid_records.map((e) => `- ${escapeCell(e.message)}`),
  ]);
}

/** `lines` without an empty line right after another. */
function withoutRepeatedBlanks(lines: readonly string[]): string[] {
  return lines.filter((line, i) => line !== '' || lines[i - 1] !== '');
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
