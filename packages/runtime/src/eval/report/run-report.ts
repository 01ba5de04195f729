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

/** Builds the run report. Ids are sorted as SWE-bench sorts them. */
export function buildRunReport(input: RunReportInput): RunReport {
  const ids = (status: InstanceResult['status']) =>
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
 * agrees with it and why not.
 */
export function formatSummary(
  report: RunReport,
  input: RunReportInput,
  title = 'sandkit eval summary',
): string {
  const withOfficial = [...input.results.values()].some((r) => r.official !== undefined);
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
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
    `| instance | status | FAIL_TO_PASS | PASS_TO_PASS | patch applied with | time (s) | note |${withOfficial ? ' official report |' : ''}`,
    `|---|---|---:|---:|---|---:|---|${withOfficial ? '---|' : ''}`,
  ];
  if (withOfficial) {
    const compared = [...input.results.values()].filter((r) => r.official !== undefined);
    const agree = compared.filter((r) => r.official?.agrees).length;
    const listed = compared.filter((r) => r.official?.tests !== undefined);
    const sameLists = listed.filter((r) => r.official?.tests?.agrees).length;
    lines.splice(
      lines.length - 2,
      0,
      `Official report.json beside ${compared.length} log(s): sandkit agrees on ${agree}, differs on ${compared.length - agree}.${listed.length === 0 ? '' : ` Test by test (${listed.length} report(s) list them): the same FAIL_TO_PASS / PASS_TO_PASS success and failure lists on ${sameLists}, other lists on ${listed.length - sameLists}.`}`,
      '',
    );
  }
  const submitted = new Set(input.submittedIds);
  for (const id of input.instanceIds) {
    const r = input.results.get(id);
    if (r === undefined) {
      lines.push(
        `| ${id} | ${submitted.has(id) ? 'not finished' : 'no prediction'} | | | | | |${withOfficial ? ' |' : ''}`,
      );
      continue;
    }
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
    const moved = r.official?.tests?.differences ?? [];
    const official =
      r.official === undefined
        ? ''
        : r.official.agrees
          ? `agrees (${r.official.resolved ? 'resolved' : 'unresolved'})${moved.length === 0 ? '' : `; ${moved.length} test(s) in other lists: ${moved.map((d) => `${d.id} (official ${d.official}, sandkit ${d.sandkit})`).join(', ')}`}`
          : `differs: official ${r.official.resolved ? 'resolved' : 'unresolved'}; ${r.official.reasons.join('; ')}`;
    const seconds = r.duration_ms === undefined ? '' : (r.duration_ms / 1000).toFixed(1);
    lines.push(
      `| ${id} | ${r.status} | ${frac(r.f2p)} | ${frac(r.p2p)} | ${r.patch_method ?? ''} | ${seconds} | ${escapeCell(note.join('; '))} |${withOfficial ? ` ${escapeCell(official)} |` : ''}`,
    );
  }
  if (report.invalid_records.length > 0) {
    lines.push(
      '',
      '## Invalid records',
      '',
      ...report.invalid_records.map((e) => `- ${escapeCell(e.message)}`),
    );
  }
  return `${lines.filter((line, i) => line !== '' || lines[i - 1] !== '').join('\n')}\n`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
