/**
 * `runEval`: a SWE-bench-style evaluation of predictions (or the gold patches) over a dataset,
 * N instances at a time, each in a fresh sandbox from a pooled provider.
 *
 * Files in `out`: `results.jsonl` (one line per finished instance, flushed as it finishes),
 * `run_report.json` (SWE-bench's run-report shape) and `summary.md`, both rewritten atomically
 * after every instance so an interrupted run always leaves a consistent pair, and per instance
 * `instances/<instance_id>/{patch.diff,test_output.txt,eval.log,report.json}`.
 * @module
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type EvalOptions, normalizeEvalOptions } from './eval-options.js';
import { createEvalSandboxes, resolveCheckoutMode } from './eval-sandboxes.js';
import { isRetriedSandboxFailure } from './infra-retry.js';
import { type InstanceResult, initialResult } from './instance/eval-result.js';
import type { InstanceContext } from './instance/instance-context.js';
import { RepoStore } from './instance/repo-store.js';
import { runInstance } from './instance/run-instance.js';
import { invalidRecordsError, unknownPredictionErrors } from './load/check-records.js';
import { loadInstances } from './load/instance-loader.js';
import { goldPredictions, loadPredictions } from './load/prediction-loader.js';
import type { RecordError } from './load/read-records.js';
import type { SweBenchInstance } from './load/swe-bench-instance.js';
import { createOutDir } from './report/create-out-dir.js';
import { isOutputWriteFailure, outputWriteError } from './report/output-write-error.js';
import { silentProgress } from './report/progress.js';
import { appendResult, readResultsForResume, rewriteResults } from './report/results-store.js';
import { checkResumeInputs, runInputsOf, verdictOptions } from './report/resume-inputs.js';
import { buildRunReport, formatSummary, type RunReport, type RunReportInput } from './report/run-report.js';
import { writeAtomic } from './report/write-atomic.js';
import { instanceTimingKey, timingSandboxName } from './schedule/instance-timing-key.js';
import { planSchedule, type ScheduleChoice } from './schedule/plan-schedule.js';
import { createDurationsRecorder } from './schedule/record-durations.js';

/** What {@link runEval} returns. */
export interface EvalRunResult {
  report: RunReport;
  /** Every finished instance (kept from a resumed run or run now), by id. */
  results: Map<string, InstanceResult>;
  /** Instances run in this call (0 when a resume found everything finished). */
  ran: number;
  /** `true` when `signal` aborted the run. */
  interrupted: boolean;
  /** Absolute output directory. */
  out: string;
  /** The order the instances started in and why (`--schedule`); `null` when nothing ran. */
  schedule: ScheduleChoice | null;
}

/**
 * Runs the evaluation. Verdicts (unresolved, errors) are results, not throws.
 * @throws SandkitError `invalid_option` for bad options, an unreadable dataset or predictions file,
 *   a record of either that cannot be used (unless `skipInvalid`; see {@link invalidRecordsError}), an
 *   `out` that is a file or cannot be created,
 *   a dataset without one record (empty, or no line that is JSON), unknown `instanceIds`, or an
 *   `out` that already has results without `resume`, or with `resume`, kept results made from
 *   other inputs (another model or patch, dataset row or verdict option; see `checkResumeInputs`),
 *   with nothing in `out` changed.
 */
export async function runEval(options: EvalOptions): Promise<EvalRunResult> {
  const opts = normalizeEvalOptions(options);
  const progress = options.progress ?? silentProgress;
  const loaded = await loadInstances(opts.dataset);
  const preds = opts.predictions === null ? null : await loadPredictions(opts.predictions);
  const predictions = preds?.predictions ?? goldPredictions(loaded.instances);
  const invalidRecords: RecordError[] = [...loaded.errors, ...(preds?.errors ?? [])];
  if (invalidRecords.length > 0 && !opts.skipInvalid) throw invalidRecordsError(invalidRecords);
  const badIds = new Set(invalidRecords.flatMap((e) => (e.instanceId === null ? [] : [e.instanceId])));
  for (const notice of preds?.notices ?? []) progress.notice(notice);
  if (preds !== null && opts.predictions !== null) {
    const datasetIds = new Set([...loaded.instances.map((i) => i.instance_id), ...badIds]);
    const unknown = unknownPredictionErrors(preds.predictions, datasetIds, opts.predictions);
    for (const error of unknown) progress.notice(error.message);
    invalidRecords.push(...unknown);
  }

  let instances = loaded.instances;
  let instanceIds = unique([
    ...instances.map((i) => i.instance_id),
    ...loaded.errors.flatMap((e) => (e.instanceId ? [e.instanceId] : [])),
  ]);
  if (instanceIds.length === 0)
    throw invalid(
      `--dataset ${opts.dataset} holds no instance${loaded.errors[0] === undefined ? '' : ` (first problem: ${loaded.errors[0].message})`}; give a SWE-bench JSON, JSONL or parquet file`,
    );
  if (opts.instanceIds !== null) {
    const wanted = new Set(opts.instanceIds);
    const unknown = opts.instanceIds.filter((id) => !instanceIds.includes(id));
    if (unknown.length > 0) throw invalid(`--instance-ids not in the dataset: ${unknown.join(', ')}`);
    instances = instances.filter((i) => wanted.has(i.instance_id));
    instanceIds = instanceIds.filter((id) => wanted.has(id));
  }

  await createOutDir(opts.out);
  await removeStaleTemps(opts.out);
  const resultsFile = join(opts.out, 'results.jsonl');
  const results = new Map<string, InstanceResult>();
  const verdict = verdictOptions(opts);
  if (opts.resume) {
    const state = await readResultsForResume(resultsFile);
    // refused before anything in --out changes: kept verdicts of other inputs would be scored as this run's
    const check = checkResumeInputs(state.kept, {
      out: opts.out,
      runIds: instanceIds,
      instances: new Map(loaded.instances.map((i) => [i.instance_id, i])),
      predictions,
      options: verdict,
    });
    for (const partial of state.partialLines)
      progress.notice(`results.jsonl line ${partial.line} ignored: ${partial.reason}`);
    if (state.errored.length > 0)
      progress.notice(`rerunning ${state.errored.length} errored instance(s): ${state.errored.join(', ')}`);
    if (check.outside.length > 0)
      progress.notice(
        `dropped ${check.outside.length} kept result(s) of instances not in this run (not in --dataset${opts.instanceIds === null ? '' : ' or not in --instance-ids'}): ${check.outside.join(', ')}`,
      );
    if (check.unchecked.length > 0)
      progress.notice(
        `${check.unchecked.length} kept result(s) were written by an older sandkit, which did not record the patch, dataset row and options they were made from: kept, checked by model name only (${check.unchecked.join(', ')}); give a new --out to be sure`,
      );
    for (const [id, result] of state.kept) if (instanceIds.includes(id)) results.set(id, result);
    await rewriteResults(resultsFile, [...results.values()]);
  } else if (existsSync(resultsFile)) {
    throw invalid(
      `${opts.out} already has results.jsonl; pass --resume to continue that run, or choose another --out`,
    );
  }

  const submittedIds = instanceIds.filter((id) => predictions.has(id) || badIds.has(id));
  for (const id of instanceIds) {
    if (!badIds.has(id) || results.has(id)) continue;
    const result = invalidRecordResult(
      id,
      invalidRecords.filter((e) => e.instanceId === id),
    );
    results.set(id, result);
    await appendResult(resultsFile, result).catch(async (error: unknown) => {
      throw await outputWriteError(resultsFile, error);
    });
  }
  let schedule: ScheduleChoice | null = null;
  const input = (interrupted: boolean): RunReportInput => ({
    instanceIds,
    submittedIds,
    results,
    invalidRecords,
    interrupted,
    ...(schedule === null ? {} : { schedule }),
  });
  // the first failure to write under --out (a full disk): no instance starts after it, the run
  // destroys its sandboxes and throws it
  let writeError: { error: unknown } | undefined;
  const stopOnWriteError = (error: unknown): void => {
    writeError ??= { error };
  };
  let writes = writeReports(opts.out, input(false)).catch(stopOnWriteError);
  let todo = instances.filter((i) => predictions.has(i.instance_id) && !results.has(i.instance_id));
  if (todo.length === 0) {
    await writes;
    if (writeError !== undefined) throw writeError.error;
    if (opts.resume) progress.notice('nothing to do: every instance already has a result');
    return {
      report: buildRunReport(input(false)),
      results,
      ran: 0,
      interrupted: false,
      out: opts.out,
      schedule,
    };
  }

  const store = new RepoStore({ reposDir: opts.reposDir, cacheDir: opts.cacheDir, repoUrl: opts.repoUrl });
  const sandboxes = createEvalSandboxes({
    isolation: opts.isolation,
    ...(opts.network === undefined ? {} : { network: opts.network }),
    kind: opts.sandbox,
    image: opts.image,
    naming: opts.naming,
    adapter: opts.adapter,
    maxSandboxes: opts.maxSandboxes,
    createsPerSecond: opts.createsPerSecond,
    timeoutMs: opts.timeoutMs,
  });
  const timingKeys = new Map(
    todo.map((i) => [i.instance_id, instanceTimingKey(i, timingSandboxName(opts, sandboxes, i))]),
  );
  const plan = await planSchedule({
    requested: opts.schedule,
    durations: opts.durations,
    cacheDir: opts.durationsCache,
    todo,
    keyOf: (instance) => timingKeys.get(instance.instance_id) as string,
  });
  // written as instances finish (at most once a minute) and at the end, so a killed run keeps its times
  const durations =
    opts.durationsCache === null
      ? undefined
      : createDurationsRecorder(opts.durationsCache, (id) => timingKeys.get(id));
  for (const note of plan.notes) progress.notice(note);
  progress.notice(`schedule: ${plan.choice.reason}`);
  schedule = plan.choice;
  todo = plan.ordered;
  const checkoutMode = resolveCheckoutMode(opts.checkout, sandboxes);
  // every running instance listens on the run's signal (its acquire, its command): not a leak
  setMaxListeners(Math.max(10, opts.workers * 4), opts.signal);
  progress.start(todo.length);
  let next = 0;
  let ran = 0;
  // images (by name; '' for the adapter's only one) found to hold no repository at /testbed
  const treelessImages = new Set<string>();
  const treelessImage = (instance: SweBenchInstance): InstanceContext['treelessImage'] => {
    let key: string;
    try {
      key = sandboxes.imageFor(instance) ?? '';
    } catch {
      return undefined; // a malformed image name: the instance's acquire reports it
    }
    return { known: () => treelessImages.has(key), learned: () => void treelessImages.add(key) };
  };
  const releases = new Set<Promise<void>>();
  /** Runs `instance` (again on a fresh sandbox after a sandbox failure); `sandboxDone` as in {@link InstanceContext.onSandboxDone}. */
  const run = async (instance: SweBenchInstance, sandboxDone: () => void): Promise<void> => {
    let result: InstanceResult | null = null;
    let retries = 0;
    for (;;) {
      result = await runInstance({
        instance,
        prediction: predictions.get(instance.instance_id)!,
        provider: () => sandboxes.forInstance(instance),
        store,
        checkoutMode,
        patchPolicy: opts.patchPolicy,
        outDir: join(opts.out, 'instances', instance.instance_id),
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        trackRelease: (release) => {
          releases.add(release);
          void release.finally(() => releases.delete(release));
        },
        onSandboxDone: sandboxDone,
        treelessImage: treelessImage(instance),
      }).catch(async (error: unknown) => {
        if (isOutputWriteFailure(error)) {
          // not the instance's fault: it has no result, so --resume runs it again
          stopOnWriteError(await outputWriteError(join(opts.out, 'instances', instance.instance_id), error));
          return null;
        }
        return opts.signal.aborted ? null : internalError(instance.instance_id, error);
      });
      if (result === null || retries >= opts.infraRetries || !isRetriedSandboxFailure(result)) break;
      retries += 1;
      progress.notice(
        `${instance.instance_id}: ${result.error_code}; running it again on a fresh sandbox (retry ${retries} of ${opts.infraRetries})`,
      );
    }
    if (result === null) return;
    if (retries > 0) result.infra_retries = retries;
    result.run_inputs = runInputsOf(instance, predictions.get(instance.instance_id), verdict);
    ran += 1;
    results.set(result.instance_id, result);
    durations?.add(result);
    // flushed in order while this worker takes its next instance (an fsync can take a second on a busy disk)
    appends = appends.then(() =>
      appendResult(resultsFile, result).catch(async (error: unknown) => {
        appendError ??= { error: await outputWriteError(resultsFile, error) };
      }),
    );
    progress.finished(result);
    // one pending rewrite at a time: it reports whatever has finished when it runs
    if (!reportQueued) {
      reportQueued = true;
      writes = writes
        .then(() => appends)
        .then(() => {
          reportQueued = false;
          return writeReports(opts.out, input(false));
        })
        .catch(stopOnWriteError);
    }
  };
  let appends: Promise<void> = Promise.resolve();
  let appendError: { error: unknown } | undefined;
  let reportQueued = false;
  // A worker takes its next instance as soon as the current one has handed its sandbox back (its
  // last command done), so the next create takes the freed quota slot while the finished instance
  // is parsed, graded and written on the host. At most one such finishing instance per worker.
  const worker = async (): Promise<void> => {
    let finishing: Promise<void> = Promise.resolve();
    while (
      !opts.signal.aborted &&
      appendError === undefined &&
      writeError === undefined &&
      next < todo.length
    ) {
      let sandboxDone = (): void => undefined;
      const done = new Promise<void>((resolve) => {
        sandboxDone = resolve;
      });
      const finished = run(todo[next++]!, sandboxDone);
      await Promise.race([finished, done]);
      await finishing;
      finishing = finished;
    }
    await finishing;
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.workers, todo.length) }, worker));
  } finally {
    progress.stop();
    await Promise.allSettled(releases);
    await sandboxes.close();
  }
  await appends;
  const unsaved = await durations?.flush();
  if (unsaved) progress.notice(unsaved);
  if (appendError !== undefined) throw appendError.error;
  await writes;
  if (writeError !== undefined) throw writeError.error;
  const interrupted = opts.signal.aborted && results.size < instanceIds.length;
  await writes;
  await writeReports(opts.out, input(interrupted));
  return { report: buildRunReport(input(interrupted)), results, ran, interrupted, out: opts.out, schedule };
}

async function writeReports(out: string, input: RunReportInput): Promise<void> {
  const report = buildRunReport(input);
  await writeAtomic(join(out, 'run_report.json'), `${JSON.stringify(report, null, 4)}\n`);
  await writeAtomic(join(out, 'summary.md'), formatSummary(report, input));
}

/** Removes the `*.tmp-<pid>-<n>` files {@link writeAtomic} left in `out` when run `<pid>` (not alive) died mid-write. */
async function removeStaleTemps(out: string): Promise<void> {
  for (const name of await readdir(out).catch(() => [] as string[])) {
    const pid = /^(?:run_report\.json|summary\.md)\.tmp-(\d+)-\d+$/.exec(name)?.[1];
    if (pid === undefined || pidAlive(Number(pid))) continue;
    await rm(join(out, name), { force: true }).catch(() => undefined);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function invalidRecordResult(id: string, errors: readonly RecordError[]): InstanceResult {
  return {
    ...initialResult(id),
    error_kind: 'dataset',
    infra_error: false,
    error: `dataset error, skipped (--skip-invalid): ${errors.map((e) => e.message).join('; ')}`,
  };
}

function internalError(id: string, error: unknown): InstanceResult {
  return {
    ...initialResult(id),
    error_kind: 'internal',
    error: `harness error: ${(error as Error).message}`,
  };
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
