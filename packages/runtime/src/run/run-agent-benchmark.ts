/**
 * `runAgentBenchmark`: a coding agent (any AI SDK model with sandkit's tools) over a SWE-bench-style
 * dataset, N instances at a time, each in a fresh sandbox prepared as `sandkit eval` prepares it
 * (the same loading, the same sandboxes and pool, the same tree preparation).
 *
 * Files in `out`: `preds.json` (rewritten atomically after every instance), one trajectory per
 * instance at `<instance_id>/<instance_id>.traj.json` (written atomically when the instance ends,
 * also when it is aborted; with `atif` also as `<instance_id>.atif.json`), `run.json` and `summary.md` (rewritten after every instance). Local
 * sandboxes are made in `<out>/.sandboxes/` (removed at the end, and at the start of the next run
 * in `out`, so a killed run's leftovers go with the next `--resume`).
 * @module
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createEvalSandboxes, resolveCheckoutMode } from '../eval/eval-sandboxes.js';
import { RepoStore } from '../eval/instance/repo-store.js';
import { loadInstances } from '../eval/load/instance-loader.js';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';
import { writeAtomic } from '../eval/report/write-atomic.js';
import { officialImageNaming } from '../eval/sandbox/official-image.js';
import { toAtifTrajectory } from './atif/to-atif.js';
import { authStop } from './auth-stop.js';
import { isFinalStatus } from './exit-status.js';
import { PredsFile } from './preds-file.js';
import { loadPromptTemplate } from './prompt-template.js';
import { runAgentInstance } from './run-agent-instance.js';
import {
  type NormalizedRunOptions,
  normalizeRunOptions,
  type RunAgentBenchmarkOptions,
} from './run-options.js';
import { buildRunRecord, formatRunSummary, type RunRecord, type RunStop } from './run-record.js';
import { selectInstances } from './select-instances.js';
import { type Trajectory, trajectorySchema } from './trajectory-schema.js';

/** What {@link runAgentBenchmark} returns. */
export interface AgentBenchmarkResult {
  record: RunRecord;
  /** Every finished instance's trajectory (kept from a resumed run or run now), by id. */
  trajectories: Map<string, Trajectory>;
  /** The Markdown summary (also in `summary.md`). */
  summary: string;
  /** Absolute output directory. */
  out: string;
  /** `true` when `signal` aborted the run before every instance finished. */
  interrupted: boolean;
  /** Set when the run stopped early because the provider refused the key (HTTP 401/403); else `null`. */
  stopped: RunStop | null;
}

/** Where an instance's ATIF trajectory is written (with `atif`). */
export function atifPath(out: string, instanceId: string): string {
  return join(out, instanceId, `${instanceId}.atif.json`);
}

/** Where an instance's trajectory is written. */
export function trajectoryPath(out: string, instanceId: string): string {
  return join(out, instanceId, `${instanceId}.traj.json`);
}

/**
 * Runs the agent over the chosen instances. What an instance does (limits, model errors, a dead
 * sandbox) is its exit status, never a throw.
 * @throws SandkitError `invalid_option` for bad options, an unreadable dataset or prompt, a chosen
 *   instance without `problem_statement`, or an `out` that holds a run without `resume` or `redo`.
 */
export async function runAgentBenchmark(options: RunAgentBenchmarkOptions): Promise<AgentBenchmarkResult> {
  const opts = normalizeRunOptions(options);
  const notice = options.onNotice ?? (() => undefined);
  const startedAt = new Date();
  const template = await loadPromptTemplate(opts.promptFile);
  const loaded = await loadInstances(opts.dataset);
  for (const error of loaded.errors) notice(`skipped: ${error.message}`);
  if (loaded.instances.length === 0)
    invalid(
      `--dataset ${opts.dataset} holds no usable instance; give a SWE-bench JSON, JSONL or parquet file`,
    );
  const chosen = selectInstances(loaded.instances, opts);
  const noStatement = chosen.filter(
    (i) => typeof i.problem_statement !== 'string' || i.problem_statement === '',
  );
  if (noStatement.length > 0)
    invalid(
      `instance(s) without a problem_statement, so the agent has no task: ${noStatement.map((i) => i.instance_id).join(', ')}; add the field, or leave them out (--filter, --instance-ids)`,
    );
  const instanceIds = chosen.map((i) => i.instance_id);

  await mkdir(opts.out, { recursive: true });
  const predsFile = join(opts.out, 'preds.json');
  if (!opts.resume && !opts.redo && existsSync(predsFile))
    invalid(
      `${opts.out} already holds a run (preds.json): pass --resume to continue it, --redo to run it again, or choose another --out`,
    );
  const preds = new PredsFile(predsFile);
  if (opts.resume || opts.redo) await preds.load();
  const trajectories = new Map<string, Trajectory>();
  if (opts.resume) {
    for (const instance of chosen) {
      const kept = await readTrajectory(trajectoryPath(opts.out, instance.instance_id));
      if (kept === null || !isFinalStatus(kept.exit_status, kept.error?.kind ?? null)) continue;
      trajectories.set(instance.instance_id, kept);
      // killed between the trajectory and preds.json: the prediction comes from the trajectory
      if (!preds.has(instance.instance_id)) await preds.set(prediction(kept));
    }
    notice(`resume: ${trajectories.size} of ${chosen.length} instance(s) already have a final status`);
  }
  const todo = chosen.filter((i) => !trajectories.has(i.instance_id));
  options.onPlan?.({ instances: chosen.length, todo: todo.length });
  await preds.delete(todo.map((i) => i.instance_id));
  let ran = 0;
  const stop: { value: RunStop | null } = { value: null };
  const writeRecord = async (interrupted: boolean): Promise<RunRecord> => {
    const record = buildRunRecord({
      options: opts,
      startedAt,
      instanceIds,
      trajectories,
      ran,
      interrupted,
      stopped: stop.value,
    });
    await writeAtomic(join(opts.out, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
    await writeAtomic(join(opts.out, 'summary.md'), formatRunSummary(record, trajectories));
    return record;
  };
  if (todo.length > 0)
    await runTodo(
      opts,
      template,
      todo,
      trajectories,
      preds,
      () => (ran += 1),
      writeRecord,
      options,
      notice,
      stop,
    );
  const interrupted = opts.signal.aborted && trajectories.size < instanceIds.length;
  const record = await writeRecord(interrupted);
  return {
    record,
    trajectories,
    summary: formatRunSummary(record, trajectories),
    out: opts.out,
    interrupted,
    stopped: stop.value,
  };
}

async function runTodo(
  opts: NormalizedRunOptions,
  template: string,
  todo: readonly SweBenchInstance[],
  trajectories: Map<string, Trajectory>,
  preds: PredsFile,
  countRan: () => void,
  writeRecord: (interrupted: boolean) => Promise<RunRecord>,
  options: RunAgentBenchmarkOptions,
  notice: (message: string) => void,
  stop: { value: RunStop | null },
): Promise<void> {
  const store = new RepoStore({ reposDir: opts.reposDir, cacheDir: opts.cacheDir, repoUrl: opts.repoUrl });
  // local sandboxes live in <out>/.sandboxes: what a killed run (kill -9) left there goes now
  const localRoot = join(opts.out, '.sandboxes');
  const local = opts.sandbox === 'local' && opts.adapter === null;
  if (local) await rm(localRoot, { recursive: true, force: true });
  const sandboxes = createEvalSandboxes({
    ...(local
      ? {
          adapterFor: async () =>
            createLocalSandboxAdapter({
              root: localRoot,
              isolation: opts.isolation ?? 'none',
              ...(opts.network === undefined ? {} : { network: opts.network }),
            }),
        }
      : {}),
    isolation: opts.isolation,
    ...(opts.network === undefined ? {} : { network: opts.network }),
    kind: opts.sandbox,
    image: opts.image,
    naming: { ...officialImageNaming, template: null },
    adapter: opts.adapter,
    maxSandboxes: opts.maxSandboxes,
    createsPerSecond: opts.createsPerSecond,
    timeoutMs: opts.instanceTimeoutMs,
  });
  const checkoutMode = resolveCheckoutMode('auto', sandboxes);
  const treeless = new Set<string>();
  const spent = { usd: 0 };
  for (const t of trajectories.values()) spent.usd += t.totals.cost_usd ?? 0;
  // the run's own stop (a refused key) aborts the running instances as Ctrl-C does
  const run = new AbortController();
  const onAbort = (): void => run.abort(opts.signal.reason);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  setMaxListeners(Math.max(10, opts.workers * 4), opts.signal, run.signal);
  let next = 0;
  let stoppedForCost = false;
  const worker = async (): Promise<void> => {
    while (!run.signal.aborted && next < todo.length) {
      if (opts.totalCostLimitUsd !== null && spent.usd >= opts.totalCostLimitUsd) {
        if (!stoppedForCost)
          notice(`--total-cost-limit ${opts.totalCostLimitUsd} USD reached: no further instance starts`);
        stoppedForCost = true;
        return;
      }
      const instance = todo[next++] as SweBenchInstance;
      options.onInstanceStart?.(instance.instance_id);
      const key = imageKey(sandboxes, instance);
      const trajectory = await runAgentInstance({
        instance,
        tree: {
          store,
          checkoutMode,
          treelessImage: { known: () => treeless.has(key), learned: () => void treeless.add(key) },
        },
        provider: () => sandboxes.forInstance(instance),
        model: opts.model,
        modelName: opts.modelName,
        promptTemplate: template,
        stepLimit: opts.stepLimit,
        costLimitUsd: opts.costLimitUsd,
        totalCostLimitUsd: opts.totalCostLimitUsd,
        spent,
        timeoutMs: opts.instanceTimeoutMs,
        maxRetries: opts.maxRetries,
        costOf: opts.costOf,
        signal: run.signal,
        onStep: (step) => options.onStep?.(instance.instance_id, step),
        onRetry: (failed) =>
          notice(
            `${instance.instance_id}: the sandbox failed (${failed.error?.message ?? 'unknown'}); running it again on a fresh sandbox`,
          ),
      });
      const valid = trajectorySchema.parse(trajectory);
      const file = trajectoryPath(opts.out, instance.instance_id);
      await mkdir(join(opts.out, instance.instance_id), { recursive: true });
      await writeAtomic(file, `${JSON.stringify(valid, null, 2)}\n`);
      if (opts.atif)
        await writeAtomic(
          atifPath(opts.out, instance.instance_id),
          `${JSON.stringify(toAtifTrajectory(valid), null, 2)}\n`,
        );
      countRan();
      const refused = authStop(valid);
      if (refused !== null && stop.value === null && !run.signal.aborted) {
        stop.value = refused;
        notice(`stopping: ${refused.message}`);
        run.abort(new Error(refused.message));
      }
      // an aborted or refused instance is not final: left out of preds.json, run again by --resume
      if (isFinalStatus(valid.exit_status, valid.error?.kind ?? null)) {
        trajectories.set(instance.instance_id, valid);
        await preds.set(prediction(valid));
      }
      options.onInstanceDone?.(valid);
      await writeRecord(false);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.workers, todo.length) }, worker));
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    await sandboxes.close();
    if (local) await rm(localRoot, { recursive: true, force: true });
  }
}

function imageKey(sandboxes: ReturnType<typeof createEvalSandboxes>, instance: SweBenchInstance): string {
  try {
    return sandboxes.imageFor(instance) ?? '';
  } catch {
    return ''; // a malformed image name: the instance's acquire reports it
  }
}

function prediction(t: Trajectory) {
  return { instance_id: t.instance_id, model_name_or_path: t.model.name, model_patch: t.patch };
}

/** A trajectory file that validates, or `null` (absent, cut short, another format). */
async function readTrajectory(file: string): Promise<Trajectory | null> {
  try {
    const parsed = trajectorySchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
