/**
 * Options of `runEval` and their one normalisation.
 * @module
 */
import { availableParallelism, homedir } from 'node:os';
import type { SandboxConfinement } from './sandbox-confinement.js';
import { join, resolve } from 'node:path';
import { type SandboxAdapter, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { minCreatesPerSecond } from '../pool/sandbox-quota.js';
import type { EvalSandboxKind } from './eval-sandboxes.js';
import type { CheckoutMode } from './instance/checkout-instance.js';
import type { PatchPolicy } from './instance/patch-step.js';
import type { EvalProgress } from './report/progress.js';
import { checkImageTemplate, type ImageNaming, officialImageNaming } from './sandbox/official-image.js';
import { resolveDurationsCacheDir } from './schedule/durations-cache-dir.js';

/** Options of {@link runEval}. */
export interface EvalOptions extends SandboxConfinement {
  /** Instances file: SWE-bench JSON array or JSONL. */
  dataset: string;
  /** Predictions file (JSON array or JSONL). Exactly one of `predictions` and `gold`. */
  predictions?: string;
  /** Grade each instance's own `patch` (SWE-bench's "gold" run). @default false */
  gold?: boolean;
  /** Output directory (created). */
  out: string;
  /** Directory of local mirrors: `owner__name` clones (bare or not) or `owner__name.bundle` files. @default none */
  reposDir?: string;
  /** Clone URL template with `{repo}`, used when no local mirror exists. @default none (offline) */
  repoUrl?: string;
  /** Where mirrors cloned from bundles/URLs are cached. @default `$XDG_CACHE_HOME/sandkit/mirrors` or `~/.cache/sandkit/mirrors` */
  cacheDir?: string;
  /** @default 'local' */
  sandbox?: EvalSandboxKind;
  /** Docker image / E2B template for instances without an `image` field. @default the official per-instance name */
  image?: string;
  /** Namespace of the official image names; `'none'` = local names (`sweb.eval.x86_64.<id>:latest`, `__` kept). @default 'swebench' */
  namespace?: string;
  /** Tag of the official image names. @default 'latest' */
  tag?: string;
  /** Image name template (`{id}`, `{id_1776}`, `{namespace}`, `{tag}`, `{arch}`, `{repo}`) instead of the official form. @default none */
  imageTemplate?: string;
  /**
   * How patches are applied: `official` = SWE-bench's chain (`git apply -v`, `git apply -v --reject`,
   * `patch --batch --fuzz=5 -p1`); `strict` = `git apply -v`, then `patch --fuzz=0` refusing fuzz.
   * @default 'official'
   */
  patchPolicy?: PatchPolicy;
  /** A ready adapter used instead of `sandbox` (custom vendors, tests). @default none */
  adapter?: SandboxAdapter;
  /**
   * Instances evaluated at once, each in a sandbox of its own. A worker takes its next instance
   * as soon as the current one has handed its sandbox back (after its evaluation script), while the
   * finished one is graded and written on the host. Integer 1–1000. @default min(4, CPU count)
   */
  workers?: number;
  /**
   * Sandboxes alive at once over the whole run (one quota shared by the run's pools, one per
   * image): in use, being created and being destroyed. Set it to the vendor's concurrency quota. Above `workers`, a finished instance's sandbox is destroyed
   * while the next one is created. Integer ≥ 1. @default 2 × workers
   */
  maxSandboxes?: number;
  /**
   * Sandbox creates sent per second at most, over the whole run: the vendor's creation rate limit
   * (E2B: 1 on Hobby, 5 on Pro). Creates are spaced `1000 / createsPerSecond` ms apart instead of
   * being refused with HTTP 429 and retried after a backoff. At least 0.001. @default Infinity (no pacing)
   */
  createsPerSecond?: number;
  /** Times an instance runs again on a fresh sandbox after its sandbox failed (expired, gone, did not start). Integer 0–10. @default 2 */
  infraRetries?: number;
  /** Wall-time budget per instance, in seconds (checkout, patches, tests), at most {@link maxTimeoutSeconds}. @default 1800 (SWE-bench's) */
  timeoutSeconds?: number;
  /** Only these instance ids. @default every instance */
  instanceIds?: readonly string[];
  /**
   * The order instances start in. `auto`: longest first by earlier times (`durations` when given,
   * else the durations cache) when any instance to run has one, those without one first in the
   * dataset's order; else the dataset's order (a first run). `longest-first`: the same, and refused
   * when there is no source of times at all (no `durations`, cache off). `dataset`: the dataset's
   * order. With more instances than workers, longest first shortens the end of the run, where the
   * last instances would otherwise run alone while the other sandboxes (quota slots) sit unused.
   * The run's `summary.md`, `run_report.json` (`schedule`) and a notice say which order ran and why.
   * @default 'auto'
   */
  schedule?: EvalSchedule;
  /**
   * An earlier run's `results.jsonl`, whose `script_ms` per instance (else `duration_ms −
   * acquire_ms`) orders `schedule` `auto` or `longest-first`, in place of the durations cache.
   * Lines of infrastructure errors are not used. Refused with `schedule: 'dataset'`. @default none
   */
  durations?: string;
  /**
   * Directory of the durations cache (`durations-v1.json`: each instance's last `script_ms`,
   * keyed by its record, its specification row and its sandbox's image; the newest 20,000 kept),
   * read for `schedule` and written at the end of every run; `false` neither reads nor writes it.
   * @default `$SANDKIT_DURATIONS_CACHE` when set (`off` = `false`), else
   *   `$XDG_CACHE_HOME/sandkit/durations` or `~/.cache/sandkit/durations`
   */
  durationsCache?: string | false;
  /**
   * Run the valid records when the dataset or predictions file has invalid ones (a line that is not
   * JSON, a missing or bad field, one id on differing rows): each such row counts in the total as a
   * `dataset` error, named in the summary. Without it such a file is refused before anything runs.
   * @default false
   */
  skipInvalid?: boolean;
  /** Keep finished instances of an earlier run in `out`, rerun errored, cut-off and missing ones. @default false */
  resume?: boolean;
  /**
   * How trees get into sandboxes. `auto`: clone for local; otherwise in place when the image holds
   * the repository at `/testbed` at `base_commit` (SWE-bench's images), else archive upload.
   * @default 'auto'
   */
  checkout?: CheckoutMode | 'auto';
  /** Aborting stops the run: running instances are killed, their sandboxes destroyed, reports written. */
  signal?: AbortSignal;
  /** @default silent */
  progress?: EvalProgress;
}

/**
 * The longest `timeoutSeconds`: the per-instance budget becomes Node.js timers (the pool's
 * acquire, the command's, E2B's sandbox lifetime of the budget plus 60 s), which hold at most
 * 2^31 − 1 ms; a longer one fires after 1 ms.
 */
export const maxTimeoutSeconds = Math.floor((2 ** 31 - 1 - 60_000) / 1000);

/** The order instances start in; see {@link EvalOptions.schedule}. */
export type EvalSchedule = 'auto' | 'dataset' | 'longest-first';

/** {@link EvalOptions} with every default filled in. */
export interface NormalizedEvalOptions extends SandboxConfinement {
  dataset: string;
  predictions: string | null;
  gold: boolean;
  out: string;
  reposDir: string | null;
  repoUrl: string | null;
  cacheDir: string;
  sandbox: EvalSandboxKind;
  image: string | null;
  naming: ImageNaming;
  patchPolicy: PatchPolicy;
  adapter: SandboxAdapter | null;
  workers: number;
  maxSandboxes: number;
  createsPerSecond: number;
  infraRetries: number;
  timeoutMs: number;
  instanceIds: readonly string[] | null;
  schedule: EvalSchedule;
  /** Absolute path of the earlier run's `results.jsonl`, or `null`. */
  durations: string | null;
  /** Absolute directory of the durations cache, or `null` when it is off. */
  durationsCache: string | null;
  resume: boolean;
  skipInvalid: boolean;
  checkout: CheckoutMode | 'auto';
  signal: AbortSignal;
}

/**
 * Fills defaults and checks values once.
 * @throws SandkitError `invalid_option` naming the option and the accepted values; also for
 *   an empty `image` or one with whitespace, for `image` or `imageTemplate` with the local sandbox
 *   (it runs no image), for both together, and
 *   for an image template with an unknown placeholder (`checkImageTemplate`), for
 *   `schedule: 'longest-first'` with neither `durations` nor the cache, and for `durations` with
 *   `schedule: 'dataset'`.
 */
export function normalizeEvalOptions(options: EvalOptions): NormalizedEvalOptions {
  const gold = options.gold ?? false;
  if (gold === (options.predictions !== undefined)) {
    invalid('give exactly one of --predictions FILE and --gold');
  }
  const workers = options.workers ?? Math.min(4, availableParallelism());
  if (!Number.isInteger(workers) || workers < 1 || workers > 1000)
    invalid(`--workers must be an integer from 1 to 1000, got ${workers}`);
  const maxSandboxes = options.maxSandboxes ?? workers * 2;
  if (!Number.isInteger(maxSandboxes) || maxSandboxes < 1)
    invalid(
      `--max-sandboxes must be a positive integer (your vendor's concurrency quota), got ${maxSandboxes}`,
    );
  const createsPerSecond = options.createsPerSecond ?? Number.POSITIVE_INFINITY;
  if (typeof createsPerSecond !== 'number' || !(createsPerSecond >= minCreatesPerSecond))
    invalid(
      `--creates-per-second must be a number of creates per second, at least ${minCreatesPerSecond} (your vendor's creation rate limit: 5 for E2B Pro, 1 for Hobby), got ${createsPerSecond}; leave it out for no limit`,
    );
  const infraRetries = options.infraRetries ?? 2;
  if (!Number.isInteger(infraRetries) || infraRetries < 0 || infraRetries > 10)
    invalid(`--infra-retries must be an integer from 0 to 10, got ${infraRetries}`);
  const timeoutSeconds = options.timeoutSeconds ?? 1800;
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > maxTimeoutSeconds)
    invalid(
      `--timeout must be a positive number of seconds up to ${maxTimeoutSeconds} (about 24.8 days, what a timer holds), got ${timeoutSeconds}`,
    );
  const schedule = options.schedule ?? 'auto';
  if (schedule !== 'auto' && schedule !== 'dataset' && schedule !== 'longest-first')
    invalid(`--schedule must be auto, dataset or longest-first, got ${String(schedule)}`);
  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const durationsCache = resolveDurationsCacheDir(options.durationsCache, cacheHome);
  if (schedule === 'longest-first' && options.durations === undefined && durationsCache === null)
    invalid(
      '--schedule longest-first needs earlier times: give --durations FILE (the results.jsonl of an earlier run of these instances), or keep the durations cache on',
    );
  if (schedule === 'dataset' && options.durations !== undefined)
    invalid(
      '--durations orders the instances only with --schedule auto or longest-first; drop --schedule dataset, or drop --durations',
    );
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
  const checkout = options.checkout ?? 'auto';
  if (!['auto', 'clone', 'archive', 'in-place'].includes(checkout))
    invalid(`--checkout must be auto, clone, archive or in-place, got ${checkout}`);
  if (checkout === 'in-place' && sandbox === 'local' && options.adapter === undefined)
    invalid(
      '--checkout in-place needs an image with the repository at /testbed (--sandbox docker or e2b); the local sandbox clones',
    );
  if (checkout === 'clone' && sandbox !== 'local' && options.adapter === undefined) {
    invalid('--checkout clone needs a sandbox that sees the host files (--sandbox local); use archive');
  }
  const patchPolicy = options.patchPolicy ?? 'official';
  if (!['official', 'strict'].includes(patchPolicy))
    invalid(`--patch-policy must be official or strict, got ${patchPolicy}`);
  const namespace = options.namespace ?? officialImageNaming.namespace;
  if (namespace !== null && !/^[a-z0-9][a-z0-9._/:-]*$/.test(namespace))
    invalid(
      `--namespace must be a registry namespace like swebench or ghcr.io/org (or none), got ${namespace}`,
    );
  const tag = options.tag ?? officialImageNaming.tag;
  if (!/^[\w][\w.-]{0,127}$/.test(tag))
    invalid(`--tag must be a Docker tag (letters, digits, _ . -), got ${tag}`);
  if (options.image !== undefined && (options.image === '' || /\s/.test(options.image)))
    invalid(
      `--image must be one image reference (or E2B template) without spaces, got ${JSON.stringify(options.image)}`,
    );
  if (options.imageTemplate !== undefined) checkImageTemplate(options.imageTemplate);
  if (options.image !== undefined && options.imageTemplate !== undefined)
    invalid(
      '--image gives one image to every instance and --image-template names one per instance: give only one of them',
    );
  if (
    sandbox === 'local' &&
    options.adapter === undefined &&
    (options.image ?? options.imageTemplate) !== undefined
  ) {
    const named = options.image !== undefined ? '--image' : '--image-template';
    invalid(
      `${named} names Docker images or E2B templates, and --sandbox local runs none (it clones each repository on the host): add --sandbox docker or --sandbox e2b, or drop ${named}`,
    );
  }
  return {
    isolation,
    ...(options.network === undefined ? {} : { network: options.network }),
    dataset: resolve(options.dataset),
    predictions: options.predictions === undefined ? null : resolve(options.predictions),
    gold,
    out: resolve(options.out),
    reposDir: options.reposDir === undefined ? null : resolve(options.reposDir),
    repoUrl: options.repoUrl ?? null,
    cacheDir: resolve(options.cacheDir ?? join(cacheHome, 'sandkit', 'mirrors')),
    sandbox,
    image: options.image ?? null,
    naming: {
      namespace: namespace === 'none' ? null : namespace,
      tag,
      arch: officialImageNaming.arch,
      template: options.imageTemplate ?? null,
    },
    patchPolicy,
    adapter: options.adapter ?? null,
    workers,
    maxSandboxes,
    createsPerSecond,
    infraRetries,
    timeoutMs: timeoutSeconds * 1000,
    instanceIds:
      options.instanceIds === undefined || options.instanceIds.length === 0 ? null : options.instanceIds,
    schedule,
    durations: options.durations === undefined ? null : resolve(options.durations),
    durationsCache,
    resume: options.resume ?? false,
    skipInvalid: options.skipInvalid ?? false,
    checkout,
    signal: options.signal ?? new AbortController().signal,
  };
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
