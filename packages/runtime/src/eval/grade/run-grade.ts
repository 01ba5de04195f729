/**
 * `runGrade`: re-grades evaluation logs that already exist (`sandkit grade`), without sandboxes.
 * Each log found under `logs` (see `find-logs.ts`) is graded against its dataset row with that
 * repository's parser and the official id form (`grade-log.ts`); when an official `report.json`
 * is beside it, the verdicts are compared (`official-agreement.ts`). Writes the same files as
 * `runEval`: `instances/<id>/report.json`, `results.jsonl`, `run_report.json` and `summary.md`,
 * each instance's as soon as it is graded (`grade-outputs.ts`), so that memory does not grow with
 * the number of logs.
 * @module
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { InstanceResult } from '../instance/eval-result.js';
import { testPlan } from '../instance/test-plan.js';
import { loadInstances } from '../load/instance-loader.js';
import { loadPredictions } from '../load/prediction-loader.js';
import type { RecordError } from '../load/read-records.js';
import type { SweBenchInstance, SweBenchPrediction } from '../load/swe-bench-instance.js';
import type { RunReport } from '../report/run-report.js';
import { checkEarlierRun } from './check-earlier-run.js';
import { type FoundLog, findLogs } from './find-logs.js';
import { type GradedInstance, type GradePlan, type GradeTask, gradeTask } from './grade-one.js';
import { GradeOutputs } from './grade-outputs.js';
import { type GradePool, startGradePool } from './grade-pool.js';

/**
 * Logs per grading thread at least: a worker thread costs about as much to start as grading a few
 * dozen logs, so a small run starts fewer workers, and one of under 16 logs none.
 */
const logsPerThread = 8;

/** Options of {@link runGrade}. */
export interface GradeOptions {
  /** Instances file (JSON, JSONL or parquet). */
  dataset: string;
  /** Directory of logs in the official layout (searched at any depth). */
  logs: string;
  /** Predictions file; without it, `patch.diff` beside each log (or its absence) says whether there was a patch. @default none */
  predictions?: string;
  /** Output directory (created). One that holds an earlier run's outputs is refused unless `overwrite`. */
  out: string;
  /**
   * Removes an earlier run's outputs from `out` (`instances/`, `results.jsonl`, `run_report.json`,
   * `summary.md`; nothing else) once the dataset and logs are read, before grading.
   * @default false
   */
  overwrite?: boolean;
  /**
   * Threads that grade logs at once, an integer from 1 to 1024: the calling thread and `jobs - 1`
   * worker threads, each reading, parsing and grading whole logs; 1 grades in the calling thread
   * only. A run with fewer than 8 logs per thread starts fewer workers (under 16 logs, none). The
   * results and files written are the same whatever the number.
   * @default `os.availableParallelism()`
   */
  jobs?: number;
  /**
   * Return every instance's result in {@link GradeRunResult.results}. The run files are written
   * as the logs are graded either way; holding the results makes the run's memory grow with the
   * submission (its missing tests, prefix matches and per-test differences from the official
   * report), so `sandkit grade` passes `false` and a caller of a large submission should too
   * (then read `results.jsonl`).
   * @default true
   */
  keepResults?: boolean;
}

/** What {@link runGrade} returns. */
export interface GradeRunResult {
  report: RunReport;
  /** Each instance's result, by id, in `results.jsonl`'s order; empty when `keepResults` is `false`. */
  results: Map<string, InstanceResult>;
  /** Instances whose official report.json disagrees with sandkit. */
  disagreements: string[];
  out: string;
  /** Threads that graded the logs: the calling thread and the worker threads started (see {@link GradeOptions.jobs}). */
  threads: number;
}

/**
 * Grades every log under `logs`.
 * @throws SandkitError `invalid_option` when the dataset, predictions or logs directory cannot be
 *   read, `jobs` is not an integer from 1 to 1024, `out` holds an earlier run's outputs and
 *   `overwrite` is not set, or `overwrite` would remove logs being graded (nothing is written or
 *   removed)
 * @throws SandkitError `internal` when a grading worker thread cannot load the grading code
 *   (nothing is written; `jobs: 1` grades in the calling thread)
 */
export async function runGrade(options: GradeOptions): Promise<GradeRunResult> {
  const jobs = options.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 1024)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--jobs must be an integer from 1 to 1024 (threads grading at once), got ${jobs}`,
    });
  const logsDir = resolve(options.logs);
  if (!existsSync(logsDir))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--logs ${logsDir} does not exist; give the directory holding <instance_id>/test_output.txt (e.g. logs/run_evaluation/<run_id>)`,
    });
  const unreadable: RecordError[] = [];
  const logs = await findLogs(logsDir, ({ dir, message }) => {
    unreadable.push({
      file: dir,
      position: 'log',
      instanceId: null,
      field: null,
      message: `${dir}: cannot be listed (${message}); the logs under it are not graded: make it readable`,
    });
  });
  const earlier = checkEarlierRun(
    resolve(options.out),
    logs.map((log) => log.dir),
    options.overwrite ?? false,
  );
  // The workers start now and load while this thread reads the dataset.
  const workers = Math.max(0, Math.min(jobs, Math.floor(logs.length / logsPerThread)) - 1);
  const pool = startGradePool({ workers });
  try {
    return {
      ...(await gradeLogs(options, logsDir, logs, unreadable, earlier, pool)),
      threads: workers + 1,
    };
  } finally {
    await pool.close();
  }
}

/** {@link runGrade} once the logs are found and the pool started. */
async function gradeLogs(
  options: GradeOptions,
  logsDir: string,
  logs: FoundLog[],
  unreadable: RecordError[],
  earlier: readonly string[],
  pool: GradePool,
): Promise<Omit<GradeRunResult, 'threads'>> {
  const out = resolve(options.out);
  const loaded = await loadInstances(resolve(options.dataset), { purpose: 'grade' });
  if (loaded.instances.length === 0)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--dataset ${options.dataset} holds no valid instance${loaded.errors[0] === undefined ? '' : ` (first problem: ${loaded.errors[0].message})`}; give a SWE-bench JSON, JSONL or parquet file`,
    });
  const preds =
    options.predictions === undefined ? null : await loadPredictions(resolve(options.predictions));
  const byId = new Map(loaded.instances.map((instance) => [instance.instance_id, instance]));
  const invalidRecords: RecordError[] = [...loaded.errors, ...(preds?.errors ?? []), ...unreadable];
  if (logs.length === 0)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `no <instance_id>/test_output.txt under ${logsDir}; point --logs at logs/run_evaluation/<run_id> (or an eval --out)`,
    });
  // --overwrite: the earlier run's outputs go once nothing is left to refuse, before the first write.
  for (const path of earlier) await rm(path, { recursive: true, force: true });
  const seen = new Map<string, string>();
  const toGrade: GradeTask[] = [];
  for (const found of logs) {
    const instance = byId.get(found.instanceId);
    const first = seen.get(found.instanceId);
    if (instance === undefined || first !== undefined) {
      invalidRecords.push({
        file: found.dir,
        position: 'log',
        instanceId: found.instanceId,
        field: null,
        message:
          instance === undefined
            ? `${found.dir}: instance ${found.instanceId} is not in the dataset; skipped`
            : `${found.dir}: a second log of ${found.instanceId}; only the first (${first}) is graded`,
      });
      continue;
    }
    seen.set(found.instanceId, found.dir);
    toGrade.push(gradeTaskOf(instance, found, preds?.predictions.get(found.instanceId)));
  }
  const outputs = new GradeOutputs(out, invalidRecords, options.keepResults ?? true);
  try {
    /**
     * Each instance's report.json, written as soon as it is graded, synchronously on this thread:
     * one mkdir (no `recursive` walk when the instances directory exists) and one write, instead of
     * `fs/promises`' thread-pool round trips, which cost more CPU than the calls themselves, several
     * at once contending for the same parent directory. Then its result goes to `outputs`, which
     * keeps the logs' order whatever order they finish in. The first error is thrown once the logs
     * are graded, as before.
     */
    const record = (index: number, { result, reportJson, problems }: GradedInstance): void => {
      const dir = join(out, 'instances', result.instance_id);
      try {
        makeInstanceDir(dir);
        writeFileSync(join(dir, 'report.json'), reportJson);
      } catch (error) {
        outputs.fail(error);
      }
      outputs.place(index, result, problems);
    };
    await pool.grade(toGrade, record);
    let placed = toGrade.length;
    const instanceIds = toGrade.map((task) => task.instance.instance_id);
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
      if (outputs.has(id)) continue;
      instanceIds.push(id);
      // The harness writes no log for an empty patch: it is graded from the prediction alone.
      if ((prediction.model_patch ?? '').trim() === '') {
        const found: FoundLog = { instanceId: id, model: '', dir: join(logsDir, id), logIsDirectory: false };
        record(placed++, gradeTask(gradeTaskOf(instance, found, prediction)));
      } else {
        outputs.placeMissing(id, true);
        placed++;
      }
    }
    // As the official report: every dataset row counts in the total; a row with neither a log nor a
    // prediction is reported as not submitted instead of silently left out.
    const submittedIds = [...instanceIds];
    const submitted = new Set(submittedIds);
    for (const instance of loaded.instances)
      if (!submitted.has(instance.instance_id)) {
        instanceIds.push(instance.instance_id);
        outputs.placeMissing(instance.instance_id, false);
      }
    const report = outputs.finish({ instanceIds, submittedIds }, 'sandkit grade summary');
    return { report, results: outputs.results, disagreements: outputs.disagreements, out };
  } finally {
    outputs.discard();
  }
}

/** The task of grading `instance`'s log in `found`, with its plan from the spec table. */
function gradeTaskOf(
  instance: SweBenchInstance,
  found: FoundLog,
  prediction: SweBenchPrediction | undefined,
): GradeTask {
  let plan: GradePlan;
  try {
    const { parser, officialParser, failOnly, source } = testPlan(instance);
    plan = { parser, officialParser, failOnly, source };
  } catch (error) {
    plan = { invalid: (error as Error).message };
  }
  return prediction === undefined ? { instance, plan, found } : { instance, plan, found, prediction };
}

/**
 * Makes an instance's output directory: one `mkdir` when its parent exists (every instance after
 * the first), else `mkdir -p` (the first, an id holding `/`, or a directory left by an earlier
 * run, which `recursive` accepts).
 */
function makeInstanceDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EEXIST') throw error;
    mkdirSync(dir, { recursive: true });
  }
}
