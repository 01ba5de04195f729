/**
 * Options of `runAgentBenchmark` and their one normalisation.
 * @module
 */
import { availableParallelism, homedir } from 'node:os';
import type { SandboxConfinement } from '../eval/sandbox-confinement.js';
import { join, resolve } from 'node:path';
import { type SandboxAdapter, SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { LanguageModel } from 'ai';
import type { EvalSandboxKind } from '../eval/eval-sandboxes.js';
import { minCreatesPerSecond } from '../pool/sandbox-quota.js';
import { defaultPromptFile } from './prompt-template.js';
import type { Trajectory, TrajectoryStep } from './trajectory-schema.js';
import type { CostOf } from './trajectory-step.js';

/** Options of `runAgentBenchmark`. */
export interface RunAgentBenchmarkOptions extends SandboxConfinement {
  /** Instances: SWE-bench JSON array, JSONL or Hugging Face parquet (loaded as `sandkit eval` loads them). */
  dataset: string;
  /** Output directory (created): `preds.json`, `run.json`, `<id>/<id>.traj.json`. */
  out: string;
  /** Any AI SDK 6 language model. */
  model: LanguageModel;
  /** The model's name in `preds.json` (`model_name_or_path`) and the trajectories, e.g. `anthropic:claude-sonnet-5-5`. */
  modelName: string;
  /** USD of one model call's usage; `null` = no known price (then no cost limit may be set). @default null */
  costOf?: CostOf;
  /** Prompt template file (`{{problem_statement}}` and the other placeholders). @default the package's `prompts/swe-bench.md` */
  promptFile?: string;
  /** Model calls per instance at most. Integer ≥ 1. @default 100 */
  stepLimit?: number;
  /** USD per instance, checked before each model call. @default none */
  costLimitUsd?: number;
  /** USD over the whole run, checked before each model call; no instance starts past it. @default none */
  totalCostLimitUsd?: number;
  /** Wall clock per instance, in seconds (sandbox, preparation, model, tools). @default 1800 */
  instanceTimeoutSeconds?: number;
  /** Retries of a failed model request (rate limits, server errors), with backoff honouring `retry-after`. Integer 0–10. @default 4 */
  maxRetries?: number;
  /** Only these instance ids. @default every instance */
  instanceIds?: readonly string[];
  /** Regular expression matched from the start of `instance_id`. @default none */
  filter?: string;
  /** `START:STOP` (Python slice). @default none */
  slice?: string;
  /** Shuffle (by `seed`) before `instanceIds`, `filter` and `slice`. @default false */
  shuffle?: boolean;
  /** @default 42 */
  seed?: number;
  /** Keep instances of an earlier run in `out` that have a final status; run the rest. @default false */
  resume?: boolean;
  /** Run every chosen instance again, replacing earlier results in `out`. @default false */
  redo?: boolean;
  /** @default 'local' */
  sandbox?: EvalSandboxKind;
  /** Docker image / E2B template for instances without an `image` field. @default the official per-instance name */
  image?: string;
  /** A ready adapter used instead of `sandbox` (tests, custom vendors). @default none */
  adapter?: SandboxAdapter;
  /** Directory of local git mirrors (`owner__name`, `.git`, `.bundle`), as for `sandkit eval`. @default none */
  reposDir?: string;
  /** Clone URL template with `{repo}`. @default none (offline) */
  repoUrl?: string;
  /** Where mirrors are cached. @default `~/.cache/sandkit/mirrors` */
  cacheDir?: string;
  /** Instances at once. Integer 1–1000. @default min(4, CPU count) */
  workers?: number;
  /** Sandboxes alive at once over the run. Integer ≥ 1. @default 2 × workers */
  maxSandboxes?: number;
  /** Sandbox creates per second at most. @default Infinity */
  createsPerSecond?: number;
  /** Also write each trajectory in Harbor's ATIF v1.7 (`<id>/<id>.atif.json`, see `toAtifTrajectory`). @default false */
  atif?: boolean;
  /** Aborting stops the run: model calls and commands are stopped, trajectories written `aborted`, sandboxes destroyed. */
  signal?: AbortSignal;
  /** Called once the instances are chosen: `todo` of the chosen `instances` run now (the rest kept by `resume`). */
  onPlan?: (plan: { instances: number; todo: number }) => void;
  /** Called when an instance starts (before its sandbox is acquired). */
  onInstanceStart?: (instanceId: string) => void;
  /** Called after each model call of an instance and its tool calls (live progress). */
  onStep?: (instanceId: string, step: TrajectoryStep) => void;
  /** Called when an instance finishes (its trajectory and prediction are on disk). */
  onInstanceDone?: (trajectory: Trajectory) => void;
  /** Called for notices (resume, skipped instances). */
  onNotice?: (message: string) => void;
}

/** {@link RunAgentBenchmarkOptions} with every default filled. */
export interface NormalizedRunOptions extends SandboxConfinement {
  dataset: string;
  out: string;
  model: LanguageModel;
  modelName: string;
  costOf: CostOf;
  promptFile: string;
  stepLimit: number;
  costLimitUsd: number | null;
  totalCostLimitUsd: number | null;
  instanceTimeoutMs: number;
  maxRetries: number;
  instanceIds: readonly string[] | null;
  filter: string | null;
  slice: string | null;
  shuffle: boolean;
  seed: number;
  resume: boolean;
  redo: boolean;
  sandbox: EvalSandboxKind;
  image: string | null;
  adapter: SandboxAdapter | null;
  reposDir: string | null;
  repoUrl: string | null;
  cacheDir: string;
  workers: number;
  maxSandboxes: number;
  createsPerSecond: number;
  atif: boolean;
  signal: AbortSignal;
}

/**
 * Fills defaults and checks values once.
 * @throws SandkitError `invalid_option` naming the option: bad numbers, `resume` with `redo`, a
 *   cost limit without a price (`costOf`), `image` with the local sandbox.
 */
export function normalizeRunOptions(options: RunAgentBenchmarkOptions): NormalizedRunOptions {
  const workers = options.workers ?? Math.min(4, availableParallelism());
  integer('--workers', workers, 1, 1000);
  const maxSandboxes = options.maxSandboxes ?? workers * 2;
  integer('--max-sandboxes', maxSandboxes, 1, Number.MAX_SAFE_INTEGER);
  const createsPerSecond = options.createsPerSecond ?? Number.POSITIVE_INFINITY;
  if (!(createsPerSecond >= minCreatesPerSecond))
    invalid(`--creates-per-second must be at least ${minCreatesPerSecond}, got ${createsPerSecond}`);
  const stepLimit = options.stepLimit ?? 100;
  integer('--step-limit', stepLimit, 1, 100_000);
  const maxRetries = options.maxRetries ?? 4;
  integer('--max-retries', maxRetries, 0, 10);
  const seed = options.seed ?? 42;
  integer('--seed', seed, 0, 2 ** 32 - 1);
  const timeoutSeconds = options.instanceTimeoutSeconds ?? 1800;
  if (!(timeoutSeconds > 0) || !Number.isFinite(timeoutSeconds))
    invalid(`--instance-timeout must be a positive number of seconds, got ${timeoutSeconds}`);
  for (const [flag, value] of [
    ['--cost-limit', options.costLimitUsd],
    ['--total-cost-limit', options.totalCostLimitUsd],
  ] as const) {
    if (value !== undefined && !(value > 0 && Number.isFinite(value)))
      invalid(`${flag} must be a positive number of USD, got ${value}`);
  }
  const costOf = options.costOf ?? null;
  if (costOf === null && (options.costLimitUsd !== undefined || options.totalCostLimitUsd !== undefined))
    invalid(
      `${options.costLimitUsd !== undefined ? '--cost-limit' : '--total-cost-limit'} needs the model's price, and ${options.modelName} has no known price: give one with --price input=<USD per million input tokens>,output=<USD per million output tokens>[,cache-read=…], or drop the cost limit`,
    );
  if (options.resume && options.redo)
    invalid('--resume keeps finished instances and --redo reruns them: give only one of them');
  const sandbox = options.sandbox ?? 'local';
  if (!['local', 'docker', 'e2b'].includes(sandbox))
    invalid(`--sandbox must be local, docker or e2b, got ${sandbox}`);
  const isolation = options.isolation ?? 'none';
  if (isolation !== 'none' && isolation !== 'bubblewrap')
    invalid(`--isolation must be none or bubblewrap, got ${isolation}`);
  if (isolation === 'bubblewrap' && sandbox !== 'local')
    invalid(
      `--isolation bubblewrap confines the local sandbox; --sandbox ${sandbox} isolates by itself: drop --isolation`,
    );
  if (options.image !== undefined && sandbox === 'local' && options.adapter === undefined)
    invalid(
      '--image names a Docker image or E2B template, and --sandbox local runs none: add --sandbox docker or e2b',
    );
  if (options.modelName.trim() === '') invalid('the model name must not be empty');
  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return {
    isolation,
    ...(options.network === undefined ? {} : { network: options.network }),
    dataset: resolve(options.dataset),
    out: resolve(options.out),
    model: options.model,
    modelName: options.modelName,
    costOf,
    promptFile: resolve(options.promptFile ?? defaultPromptFile),
    stepLimit,
    costLimitUsd: options.costLimitUsd ?? null,
    totalCostLimitUsd: options.totalCostLimitUsd ?? null,
    instanceTimeoutMs: timeoutSeconds * 1000,
    maxRetries,
    instanceIds:
      options.instanceIds === undefined || options.instanceIds.length === 0 ? null : options.instanceIds,
    filter: options.filter ?? null,
    slice: options.slice ?? null,
    shuffle: options.shuffle ?? false,
    seed,
    resume: options.resume ?? false,
    redo: options.redo ?? false,
    sandbox,
    image: options.image ?? null,
    adapter: options.adapter ?? null,
    reposDir: options.reposDir === undefined ? null : resolve(options.reposDir),
    repoUrl: options.repoUrl ?? null,
    cacheDir: resolve(options.cacheDir ?? join(cacheHome, 'sandkit', 'mirrors')),
    workers,
    maxSandboxes,
    createsPerSecond,
    atif: options.atif ?? false,
    signal: options.signal ?? new AbortController().signal,
  };
}

function integer(flag: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    invalid(`${flag} must be an integer from ${min} to ${max}, got ${value}`);
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
