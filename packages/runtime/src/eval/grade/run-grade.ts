/**
 * `runGrade`: re-grades evaluation logs that already exist (`sandkit grade`), without sandboxes.
 * Each log found under `logs` (see `find-logs.ts`) is graded against its dataset row with that
 * repository's parser and the official id form (`grade-log.ts`); when an official `report.json`
 * is beside it, the verdicts are compared (`official-agreement.ts`). Writes the same files as
 * `runEval`: `instances/<id>/report.json`, `results.jsonl`, `run_report.json` and `summary.md`.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import {
  type InstanceResult,
  initialResult,
  isInfraError,
  type SweBenchInstanceReport,
} from '../instance/eval-result.js';
import { testPlan } from '../instance/test-plan.js';
import { loadInstances } from '../load/instance-loader.js';
import { loadPredictions } from '../load/prediction-loader.js';
import type { RecordError } from '../load/read-records.js';
import type { SweBenchInstance, SweBenchPrediction } from '../load/swe-bench-instance.js';
import { buildRunReport, formatSummary, type RunReport, type RunReportInput } from '../report/run-report.js';
import { type FoundLog, findLogs } from './find-logs.js';
import { gradeLog } from './grade-log.js';
import { mapConcurrent } from './map-concurrent.js';
import { compareWithOfficial, readOfficialReport } from './official-agreement.js';

/** Logs graded at once: enough to overlap reading with parsing, few enough to bound memory (4 logs held). */
const gradeConcurrency = 4;

/** Options of {@link runGrade}. */
export interface GradeOptions {
  /** Instances file (JSON, JSONL or parquet). */
  dataset: string;
  /** Directory of logs in the official layout (searched at any depth). */
  logs: string;
  /** Predictions file; without it, `patch.diff` beside each log (or its absence) says whether there was a patch. @default none */
  predictions?: string;
  /** Output directory (created). */
  out: string;
}

/** What {@link runGrade} returns. */
export interface GradeRunResult {
  report: RunReport;
  results: Map<string, InstanceResult>;
  /** Instances whose official report.json disagrees with sandkit. */
  disagreements: string[];
  out: string;
}

/**
 * Grades every log under `logs`.
 * @throws SandkitError `invalid_option` when the dataset, predictions or logs directory cannot be read.
 */
export async function runGrade(options: GradeOptions): Promise<GradeRunResult> {
  const logsDir = resolve(options.logs);
  const out = resolve(options.out);
  if (!existsSync(logsDir))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--logs ${logsDir} does not exist; give the directory holding <instance_id>/test_output.txt (e.g. logs/run_evaluation/<run_id>)`,
    });
  const loaded = await loadInstances(resolve(options.dataset));
  if (loaded.instances.length === 0)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--dataset ${options.dataset} holds no valid instance${loaded.errors[0] === undefined ? '' : ` (first problem: ${loaded.errors[0].message})`}; give a SWE-bench JSON, JSONL or parquet file`,
    });
  const preds =
    options.predictions === undefined ? null : await loadPredictions(resolve(options.predictions));
  const byId = new Map(loaded.instances.map((instance) => [instance.instance_id, instance]));
  const invalidRecords: RecordError[] = [...loaded.errors, ...(preds?.errors ?? [])];
  const logs = await findLogs(logsDir, ({ dir, message }) => {
    invalidRecords.push({
      file: dir,
      position: 'log',
      instanceId: null,
      field: null,
      message: `${dir}: cannot be listed (${message}); the logs under it are not graded: make it readable`,
    });
  });
  if (logs.length === 0)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `no <instance_id>/test_output.txt under ${logsDir}; point --logs at logs/run_evaluation/<run_id> (or an eval --out)`,
    });
  const results = new Map<string, InstanceResult>();
  const reports: Array<[string, SweBenchInstanceReport]> = [];
  const seen = new Set<string>();
  const toGrade: Array<{ instance: SweBenchInstance; found: FoundLog }> = [];
  for (const found of logs) {
    const instance = byId.get(found.instanceId);
    if (instance === undefined || seen.has(found.instanceId)) {
      invalidRecords.push({
        file: found.dir,
        position: 'log',
        instanceId: found.instanceId,
        field: null,
        message:
          instance === undefined
            ? `${found.dir}: instance ${found.instanceId} is not in the dataset; skipped`
            : `${found.dir}: a second log of ${found.instanceId}; only the first (${[...logs].find((l) => l.instanceId === found.instanceId)?.dir}) is graded`,
      });
      continue;
    }
    seen.add(found.instanceId);
    toGrade.push({ instance, found });
  }
  // A few logs at once, so reading one overlaps parsing another; results keep the logs' order.
  const graded = await mapConcurrent(toGrade, gradeConcurrency, async ({ instance, found }) => {
    const started = performance.now();
    const pair = await gradeOne(instance, found, preds?.predictions.get(found.instanceId), invalidRecords);
    pair[0].duration_ms = Math.round(performance.now() - started);
    return pair;
  });
  for (const [result, report] of graded) {
    results.set(result.instance_id, result);
    reports.push([result.instance_id, report]);
  }
  const instanceIds = [...results.keys()];
  for (const [id, prediction] of preds?.predictions ?? []) {
    const instance = byId.get(id);
    if (instance === undefined) {
      // The official harness refuses such a run ("Some prediction IDs not found in dataset!").
      invalidRecords.push({
        file: resolve(options.predictions as string),
        position: 'prediction',
        instanceId: id,
        field: 'instance_id',
        message: `${options.predictions}: the prediction for ${id} has no row in --dataset ${options.dataset}; not graded (is it the right dataset or split?)`,
      });
      continue;
    }
    if (results.has(id)) continue;
    instanceIds.push(id);
    // The harness writes no log for an empty patch: it is graded from the prediction alone.
    if ((prediction.model_patch ?? '').trim() === '') {
      const [result, instanceReport] = await gradeOne(
        instance,
        { instanceId: id, model: '', dir: join(logsDir, id), logIsDirectory: false },
        prediction,
        invalidRecords,
      );
      results.set(id, result);
      reports.push([id, instanceReport]);
    }
  }
  // As the official report: every dataset row counts in the total; a row with neither a log nor a
  // prediction is reported as not submitted instead of silently left out.
  const submittedIds = [...instanceIds];
  for (const instance of loaded.instances)
    if (!instanceIds.includes(instance.instance_id)) instanceIds.push(instance.instance_id);
  const input: RunReportInput = {
    instanceIds,
    submittedIds,
    results,
    invalidRecords,
    interrupted: false,
  };
  const report = buildRunReport(input);
  await mkdir(out, { recursive: true });
  await Promise.all(
    reports.map(async ([id, instanceReport]) => {
      await mkdir(join(out, 'instances', id), { recursive: true });
      await writeFile(
        join(out, 'instances', id, 'report.json'),
        `${JSON.stringify(instanceReport, null, 4)}\n`,
      );
    }),
  );
  await writeFile(
    join(out, 'results.jsonl'),
    [...results.values()].map((r) => `${JSON.stringify(r)}\n`).join(''),
  );
  await writeFile(join(out, 'run_report.json'), `${JSON.stringify(report, null, 4)}\n`);
  await writeFile(join(out, 'summary.md'), formatSummary(report, input, 'sandkit grade summary'));
  const disagreements = [...results.values()]
    .filter((r) => r.official?.agrees === false)
    .map((r) => r.instance_id);
  return { report, results, disagreements, out };
}

/**
 * Grades one log. What it notices about the files beside the log goes to the result's
 * `grade_notes`; a file that cannot be used also goes to `problems` (the run report's
 * `invalid_records`).
 */
async function gradeOne(
  instance: SweBenchInstance,
  found: FoundLog,
  prediction: SweBenchPrediction | undefined,
  problems: RecordError[],
): Promise<[InstanceResult, SweBenchInstanceReport]> {
  const id = instance.instance_id;
  const { dir } = found;
  const patchRead = prediction !== undefined ? null : await readOptional(join(dir, 'patch.diff'));
  const patch = prediction !== undefined ? prediction.model_patch : (patchRead?.text ?? null);
  const result = initialResult(id, {
    model_name_or_path: prediction?.model_name_or_path ?? found.model,
    infra_error: false,
    f2p: { success: 0, total: instance.FAIL_TO_PASS.length },
    p2p: { success: 0, total: instance.PASS_TO_PASS.length },
  });
  const notes: string[] = [];
  const problem = (file: string, message: string, note: boolean): void => {
    if (note) notes.push(message);
    problems.push({ file, position: 'log', instanceId: id, field: null, message: `${file}: ${message}` });
  };
  const entry: SweBenchInstanceReport[string] = {
    patch_is_None: prediction !== undefined && patch === null,
    patch_exists:
      prediction === undefined
        ? patch === null || patch.trim() !== ''
        : patch !== null && patch.trim() !== '',
    patch_successfully_applied: false,
    resolved: false,
  };
  const report: SweBenchInstanceReport = { [id]: entry };
  if (patchRead?.error !== undefined)
    problem(
      join(dir, 'patch.diff'),
      `cannot be read (${patchRead.error}): graded as if the patch were not empty; make it readable`,
      true,
    );
  const done = (): [InstanceResult, SweBenchInstanceReport] => {
    if (notes.length > 0) result.grade_notes = notes;
    return [result, report];
  };
  if (!entry.patch_exists) {
    result.status = 'empty_patch';
    return done();
  }
  /** The row ends as an invalid record: nothing to grade. */
  const invalidRecord = (message: string) => {
    result.error_kind = 'invalid_record';
    result.infra_error = true;
    result.error = message;
    return done();
  };
  let plan: ReturnType<typeof testPlan>;
  try {
    plan = testPlan(instance);
  } catch (error) {
    return invalidRecord((error as Error).message);
  }
  if (plan.source === 'default' && instance.test_framework === undefined)
    notes.push(
      `${instance.repo} is not in the SWE-bench spec table and the row has no test_framework: graded with sandkit's fallback ${plan.parser} parser, which may not read this repository's log; the official harness has no parser for it either: give the row's test_framework (and test_cmd) if ${plan.parser} is wrong`,
    );
  if (found.logIsDirectory) {
    const message = `test_output.txt is a directory, not a log: nothing to grade; put the instance's test log there as a file (the official harness writes one per instance)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  const logRead = await readOptional(join(dir, 'test_output.txt'));
  if (logRead.error !== undefined) {
    const message = `test_output.txt cannot be read (${logRead.error}): nothing graded; make it readable (a log over 512 MiB is beyond what sandkit grade reads)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  const log = logRead.text ?? '';
  const graded = gradeLog(log, {
    ...plan,
    FAIL_TO_PASS: instance.FAIL_TO_PASS,
    PASS_TO_PASS: instance.PASS_TO_PASS,
  });
  const reportFile = join(dir, 'report.json');
  const officialRead = await readOptional(reportFile);
  const officialText = officialRead.text;
  if (officialRead.error !== undefined)
    problem(
      reportFile,
      `cannot be read (${officialRead.error}): not compared with the official verdict; make it readable`,
      true,
    );
  else if (officialText !== null) {
    const beside = readOfficialReport(officialText, id, existsSync(join(dir, 'eval.log')));
    if (beside.kind === 'official')
      result.official = compareWithOfficial(graded, beside.report, instance, plan.officialParser);
    else if (beside.kind === 'sandkit')
      notes.push(
        "report.json here is sandkit's own (written by sandkit eval, eval.log beside it), not the official harness's: not compared",
      );
    else
      problem(
        reportFile,
        `the official report.json ${beside.problem}: not compared with the official verdict; regenerate it with the official harness or remove it`,
        true,
      );
  }
  if (!graded.evaluated) {
    result.error_kind = graded.notEvaluatedKind ?? 'patch_apply';
    result.infra_error = isInfraError(result.error_kind);
    result.error = `not evaluated: ${graded.notEvaluatedReason}`;
    return done();
  }
  entry.patch_successfully_applied = true;
  if (graded.testPatchFailed) {
    result.error_kind = 'test_patch';
    result.infra_error = true;
    result.error = `the test patch did not apply: ${graded.testPatchError}; never resolved`;
    entry.tests_status = graded.grade.tests_status;
    return done();
  }
  if (graded.parserMissing) {
    result.error_kind = 'internal';
    result.infra_error = true;
    result.error = `no "${plan.parser}" parser in this build of @sandkit/tools`;
    return done();
  }
  entry.resolved = graded.resolved;
  entry.tests_status = graded.grade.tests_status;
  result.status = graded.resolved ? 'resolved' : 'unresolved';
  result.missing_tests = graded.grade.missing;
  result.prefix_matches = graded.grade.prefixMatches;
  result.skipped_fail_to_pass = graded.grade.skippedFailToPass;
  result.id_collisions = graded.collisions.map((c) => ({
    official: c.official,
    from: c.from.map((f) => f.id),
  }));
  result.f2p.success = graded.grade.tests_status.FAIL_TO_PASS.success.length;
  result.p2p.success = graded.grade.tests_status.PASS_TO_PASS.success.length;
  return done();
}

/**
 * A file beside a log: its text, `null` when it does not exist, or why it cannot be read (no
 * permission, a directory, over 2 GiB, a text over V8's string limit) so that one bad file makes
 * one row's problem, not a failed run.
 */
async function readOptional(file: string): Promise<{ text: string | null; error?: string }> {
  try {
    return { text: await readFile(file, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: null };
    return { text: null, error: (error as Error).message };
  }
}
