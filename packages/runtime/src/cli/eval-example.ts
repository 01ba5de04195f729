/**
 * `sandkit eval --example`: the one-command demonstration of the harness on the dataset embedded in
 * this package (`datasets/swebench-mini`, 6 instances over three small repositories, offline).
 * Builds the dataset's repositories into the cache, grades the gold patches (`<out>/gold`), then the
 * model-like predictions (`<out>/wrong`), and prints both summaries.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type EvalOptions, normalizeEvalOptions } from '../eval/eval-options.js';
import type { EvalProgress } from '../eval/report/progress.js';
import { runEval } from '../eval/run-eval.js';
import { buildExampleRepos, exampleDatasetFiles } from '../example-dataset/build-example-repos.js';

/** The options of `sandkit eval` that `--example` passes on to both runs. */
export interface ExampleEvalOptions
  extends Omit<
    EvalOptions,
    'dataset' | 'predictions' | 'gold' | 'reposDir' | 'repoUrl' | 'resume' | 'instanceIds' | 'progress'
  > {
  /** Makes the progress reporter of each run (one per run: counters start at 0). @default silent */
  createProgress?: () => EvalProgress;
}

/** What {@link runExampleEval} did. */
export interface ExampleEvalResult {
  /** `true` when `signal` aborted one of the runs (the second is then not started). */
  interrupted: boolean;
  /** Instances of either run that ended as infrastructure errors (`run/<id>`, `run` = gold or wrong). */
  infraErrorIds: string[];
  /** The output directories of the runs that finished (gold, then wrong). */
  runDirs: string[];
}

/**
 * Runs the example: builds the repositories into `<cacheDir>/swebench-mini` (cache default
 * `$XDG_CACHE_HOME/sandkit/mirrors` or `~/.cache/sandkit/mirrors`), grades the gold patches into
 * `<out>/gold` and the wrong predictions into `<out>/wrong`, replacing the results of an earlier
 * `--example` run there, and writes each run's summary to `write`.
 * @throws SandkitError `invalid_option` for a bad option (before anything is built or replaced),
 *   or when `<out>/gold` or `<out>/wrong` exists, is not empty and holds no sandkit results
 *   (choose another `--out`); whatever `runEval` throws.
 */
export async function runExampleEval(
  options: ExampleEvalOptions,
  write: (text: string) => void,
): Promise<ExampleEvalResult> {
  const cacheDir = exampleCacheDir(options.cacheDir);
  const out = resolve(options.out);
  const runs = [
    { name: 'gold', title: 'Gold patches (expected: 6 of 6 resolved)', gold: true },
    {
      name: 'wrong',
      title:
        options.patchPolicy === 'strict'
          ? 'Model-like predictions (expected with --patch-policy strict: 2 resolved; 1 patch_apply error, the patch only patch --fuzz=5 applies; 2 unresolved; 1 empty patch)'
          : 'Model-like predictions (expected: 3 resolved, one only through patch --fuzz=5 as the official harness applies it; 2 unresolved; 1 empty patch)',
      predictions: exampleDatasetFiles.wrongPredictions,
    },
  ];
  const { createProgress, ...evalOptions } = options;
  // bad options are usage errors before anything is built or replaced
  normalizeEvalOptions({ ...evalOptions, dataset: exampleDatasetFiles.instances, gold: true });
  for (const run of runs) await clearEarlierRun(join(out, run.name));
  const infraErrorIds: string[] = [];
  const runDirs: string[] = [];
  const reposDir = await buildReposInto(exampleMirrorsDir(cacheDir));
  for (const run of runs) {
    const result = await runEval({
      ...evalOptions,
      ...(createProgress === undefined ? {} : { progress: createProgress() }),
      dataset: exampleDatasetFiles.instances,
      ...(run.predictions === undefined ? { gold: true } : { predictions: run.predictions }),
      reposDir,
      cacheDir,
      out: join(out, run.name),
    });
    write(`\n## ${run.title}: ${result.out}\n\n`);
    write(await readFile(join(result.out, 'summary.md'), 'utf8'));
    infraErrorIds.push(...result.report.infra_error_ids.map((id) => `${run.name}/${id}`));
    runDirs.push(result.out);
    if (result.interrupted) return { interrupted: true, infraErrorIds, runDirs };
  }
  return { interrupted: false, infraErrorIds, runDirs };
}

/**
 * The mirrors cache of `sandkit eval`: `cacheDir` (`--cache-dir`) resolved, else
 * `$XDG_CACHE_HOME/sandkit/mirrors`, else `~/.cache/sandkit/mirrors`.
 */
export function exampleCacheDir(cacheDir?: string): string {
  const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return resolve(cacheDir ?? join(cacheHome, 'sandkit', 'mirrors'));
}

/** Where `--example` builds the embedded dataset's repositories: `<cacheDir>/swebench-mini` (see {@link exampleCacheDir}). */
export function exampleMirrorsDir(cacheDir: string): string {
  return join(cacheDir, 'swebench-mini');
}

/**
 * The embedded dataset ready to run: its repositories built into `<cacheDir>/swebench-mini` (see
 * {@link exampleCacheDir}), as `sandkit eval --example` builds them (`sandkit run --example` uses it).
 */
export async function prepareExampleDataset(
  cacheDir?: string,
): Promise<{ dataset: string; reposDir: string }> {
  const reposDir = await buildReposInto(exampleMirrorsDir(exampleCacheDir(cacheDir)));
  return { dataset: exampleDatasetFiles.instances, reposDir };
}

/** Builds the repositories in a fresh sibling directory, then puts it in place of `target`. */
async function buildReposInto(target: string): Promise<string> {
  await mkdir(resolve(target, '..'), { recursive: true });
  const fresh = await mkdtemp(`${target}.building-`);
  try {
    buildExampleRepos(fresh);
    await rm(target, { recursive: true, force: true });
    await rename(fresh, target);
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    throw error;
  }
  return target;
}

async function clearEarlierRun(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  if (existsSync(join(dir, 'results.jsonl')) || existsSync(join(dir, 'run_report.json'))) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  if ((await readdir(dir)).length > 0)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `${dir} exists and holds no sandkit eval results; --example writes gold/ and wrong/ under --out: choose another --out`,
      details: { dir },
    });
}
