/**
 * `sandkit eval`: the SWE-bench-style evaluation harness on the command line.
 *
 * Exit codes: 0 the run completed and every instance has a verdict (resolved, unresolved, empty
 * patch, or a model patch that did not apply: the model's doing), 1 the harness itself failed,
 * 2 usage error (bad option, unreadable dataset or predictions, a record of either that cannot
 * be used without `--skip-invalid`, an `--out` that is a file or cannot be created, existing
 * results without `--resume`), 3 the run completed but at least one instance ended as an infrastructure error
 * (sandbox, image, repository, setup, timeout: `infra_error_ids` in `run_report.json`; its score
 * is not comparable, and `--resume` reruns those instances), 130 / 143 / 129 interrupted by
 * SIGINT (Ctrl-C) / SIGTERM (CI, `timeout`, Kubernetes) / SIGHUP: 128 + the signal's number; the
 * sandboxes are destroyed, the report is consistent and `--resume` finishes the run.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { LocalIsolation, NetworkPolicy } from '@sandkit/sandbox-adapters/local';
import { parseNetworkFlag } from '../eval/sandbox-confinement.js';
import { join } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { Command, InvalidArgumentError, Option } from 'commander';
import { type EvalSchedule, maxTimeoutSeconds } from '../eval/eval-options.js';
import type { EvalSandboxKind } from '../eval/eval-sandboxes.js';
import type { CheckoutMode } from '../eval/instance/checkout-instance.js';
import type { PatchPolicy } from '../eval/instance/patch-step.js';
import { createStreamProgress } from '../eval/report/progress.js';
import { runEval } from '../eval/run-eval.js';
import { exampleDatasetFiles } from '../example-dataset/build-example-repos.js';
import { minCreatesPerSecond } from '../pool/sandbox-quota.js';
import { exampleCacheDir, exampleMirrorsDir, runExampleEval } from './eval-example.js';
import { positiveInteger } from './positive-integer.js';
import { printReports } from './print-reports.js';
import { missingSandboxPackages } from './sandbox-packages.js';

/** Exit codes of `sandkit eval`. */
export const evalExitCode = { completed: 0, failed: 1, usage: 2, infraErrors: 3, interrupted: 130 } as const;

/** The signals that interrupt a run, each with its exit code (128 + its number). */
export const interruptSignals = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

interface EvalCliOptions {
  dataset?: string;
  example?: boolean;
  predictions?: string;
  gold?: boolean;
  out: string;
  repos?: string;
  repoUrl?: string;
  cacheDir?: string;
  sandbox: EvalSandboxKind;
  isolation?: LocalIsolation;
  network?: NetworkPolicy;
  image?: string;
  namespace?: string;
  tag?: string;
  imageTemplate?: string;
  patchPolicy: PatchPolicy;
  workers?: number;
  maxSandboxes?: number;
  createsPerSecond?: number;
  infraRetries?: number;
  timeout: number;
  instanceIds?: string[];
  schedule: EvalSchedule;
  durations?: string;
  durationsCache?: string | false;
  resume?: boolean;
  skipInvalid?: boolean;
  checkout: CheckoutMode | 'auto';
  json?: boolean;
  view: boolean;
}

/** The help's examples; the embedded dataset's paths are this installation's. */
const examples = (): string => `
Examples:
  # the embedded dataset (6 instances, offline): builds its repositories into the cache, grades the
  # gold patches into sandkit-eval/gold (6 of 6 resolved), then model-like predictions into
  # sandkit-eval/wrong, and prints both summaries
  sandkit eval --example

  # the embedded dataset as a dataset of your own (--example takes the run's options, such as
  # --workers, --out or --patch-policy, but not --dataset, --gold or --instance-ids), once
  # --example has built its repositories into the cache
  sandkit eval --dataset ${exampleDatasetFiles.instances} \\
    --predictions ${exampleDatasetFiles.wrongPredictions} \\
    --repos ${exampleMirrorsDir(exampleCacheDir())} --workers 2 --out out/mini

  # model predictions, 4 at a time, resume after an interruption
  sandkit eval --dataset instances.jsonl --predictions preds.jsonl --repos mirrors --workers 4 --out out/run1
  sandkit eval --dataset instances.jsonl --predictions preds.jsonl --repos mirrors --workers 4 --out out/run1 --resume

  # E2B Pro (100 concurrent sandboxes, 5 creates a second): never more than 100 alive, one worker per slot,
  # creates 200 ms apart (each worker takes its next instance as soon as its sandbox is handed back; see docs/running-swe-bench.md,
  # "Running at scale")
  sandkit eval --dataset instances.jsonl --predictions preds.jsonl --sandbox e2b --image my-template --workers 100 --max-sandboxes 100 --creates-per-second 5 --out out/e2b

  # the next model on the same instances: --schedule auto (the default) starts them longest first
  # by the times the first run left in the durations cache, so the run's end is not a few long
  # instances running alone (--durations out/e2b/results.jsonl gives the times from a file instead)
  sandkit eval --dataset instances.jsonl --predictions preds2.jsonl --sandbox e2b --image my-template --workers 100 --max-sandboxes 100 --creates-per-second 5 --out out/e2b-2

  # SWE-bench Verified on the official images (swebench/sweb.eval.x86_64.<id>:latest), in place at /testbed
  sandkit eval --dataset data/test-00000-of-00001.parquet --predictions preds.jsonl --sandbox docker --out out/verified

  # Docker: one image for every instance (or an "image" field per instance)
  sandkit eval --dataset instances.jsonl --gold --repos mirrors --sandbox docker --image my/swe-env:py311 --out out/docker

Files written to --out:
  results.jsonl                      one line per finished instance (flushed as each finishes)
  run_report.json                    SWE-bench run report (resolved_ids, error_ids, ...)
  summary.md                         counts and a per-instance table (also printed at the end)
  instances/<id>/patch.diff          the evaluated patch
  instances/<id>/eval.sh             the evaluation script that ran in the sandbox
  instances/<id>/test_output.txt     the test step's output, the tests' between >>>>> Start/End Test Output
  instances/<id>/eval.log            every command, its exit code and time
  instances/<id>/report.json         SWE-bench per-instance report (tests_status, resolved)
  report.html                        the HTML report (sandkit view; its path is printed at the end; --no-view: none)

Exit codes:
  0    run completed, every instance has a verdict (resolved, unresolved, empty patch, or a
       model patch that did not apply; with --skip-invalid, bad rows count as dataset errors)
  1    the harness failed
  2    usage error (a bad option; an unreadable dataset or predictions file, or one with a
       record that cannot be used, named by file, line and field, unless --skip-invalid; an
       --out that is a file or cannot be created; results in --out without --resume, or
       with --resume, results made from other predictions, dataset rows or options)
  3    run completed, but some instances ended as infrastructure errors (sandbox, image,
       repository, setup, timeout; infra_error_ids in run_report.json): no verdict for them,
       so the score is not comparable; fix the cause and rerun with --resume
  130  interrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP: sandboxes destroyed,
       report consistent; rerun with --resume. A second signal quits at once (sandbox
       directories still removed)
  After kill -9, the next run (with or without --resume) removes the killed run's sandboxes and
  their processes at its first sandbox; \`sandkit clean\` does it without a run.
`;

/**
 * Adds the `eval` command to `program` (commander 14).
 * @returns the `eval` command.
 */
export function registerEvalCommand(program: Command): Command {
  return program
    .command('eval')
    .summary('grade predictions on SWE-bench-style instances in fresh sandboxes')
    .description(
      'Evaluate model patches (or the gold patches) on SWE-bench-style task instances: each instance gets a fresh sandbox with its repository at base_commit, the patch and the test patch are applied, the tests run, and every FAIL_TO_PASS / PASS_TO_PASS test is graded as SWE-bench does.',
    )
    .option(
      '--dataset <file>',
      'instances: SWE-bench JSON array, JSONL, or Hugging Face parquet (data/test-*.parquet); or --example',
    )
    .option(
      '--example',
      'grade the embedded dataset: gold patches into OUT/gold, then model-like predictions into OUT/wrong',
    )
    .option(
      '--predictions <file>',
      'predictions (instance_id, model_name_or_path, model_patch), JSON or JSONL',
    )
    .option('--gold', "grade each instance's own patch instead of predictions")
    .option('--out <dir>', 'output directory', 'sandkit-eval')
    .option(
      '--repos <dir>',
      'local git mirrors: DIR/owner__name (a git clone, bare or not; not a folder of sources) or DIR/owner__name.bundle',
    )
    .option(
      '--repo-url <template>',
      'clone URL when no local mirror exists, e.g. https://github.com/{repo}.git',
    )
    .option(
      '--cache-dir <dir>',
      'where mirrors cloned from bundles or URLs are kept (default ~/.cache/sandkit/mirrors)',
    )
    .addOption(
      new Option('--sandbox <kind>', 'sandbox vendor').choices(['local', 'docker', 'e2b']).default('local'),
    )
    .addOption(
      new Option(
        '--isolation <mode>',
        'local sandbox only: none (commands run as you, on this machine) or bubblewrap (read-only host, writable workspace, own PID and network namespaces, protected paths)',
      ).choices(['none', 'bubblewrap']),
    )
    .option(
      '--network <policy>',
      'none, all, or a comma-separated allowlist such as registry.npmjs.org,*.pypi.org (local needs --isolation bubblewrap; default: all for local and e2b, none for docker)',
      parseNetworkFlag,
    )
    .option(
      '--image <name>',
      'Docker image / E2B template for instances without an "image" field (default: the official swebench/sweb.eval.x86_64.<id>:latest)',
    )
    .option(
      '--namespace <name>',
      'namespace of the official image names ("none": local sweb.eval.x86_64.<id> names)',
      'swebench',
    )
    .option('--tag <tag>', 'tag of the official image names', 'latest')
    .option(
      '--image-template <template>',
      'image name per instance instead of the official one: {id} {id_1776} {namespace} {tag} {arch} {repo}',
    )
    .addOption(
      new Option(
        '--patch-policy <policy>',
        'official: git apply, git apply --reject, patch --fuzz=5 (SWE-bench); strict: git apply, patch --fuzz=0',
      )
        .choices(['official', 'strict'])
        .default('official'),
    )
    .option('--workers <n>', 'instances evaluated at once (default: CPU count, at most 4)', positiveInteger)
    .option(
      '--max-sandboxes <n>',
      "sandboxes alive at once, being created or destroyed included; set it to your vendor's concurrency quota (default: 2 × workers)",
      positiveInteger,
    )
    .option(
      '--creates-per-second <n>',
      "sandbox creates sent per second at most; set it to your vendor's creation rate limit (E2B: 1 on Hobby, 5 on Pro) (default: no limit)",
      createRate,
    )
    .option(
      '--infra-retries <n>',
      'times an instance runs again on a fresh sandbox after its sandbox expired or failed to start',
      nonNegativeInteger,
      2,
    )
    .option('--timeout <seconds>', 'wall-time budget per instance, in seconds', timeoutSeconds, 1800)
    .option('--instance-ids <ids...>', 'only these instances (space or comma separated)', collectIds)
    .addOption(
      new Option(
        '--schedule <order>',
        "order instances start in: auto (longest first by earlier times, --durations' or the durations cache's, when any instance has one; else the dataset's order), dataset, or longest-first (auto, refused without a source of times); longest first shortens the end of a run with more instances than workers",
      )
        .choices(['auto', 'dataset', 'longest-first'])
        .default('auto'),
    )
    .option(
      '--durations <results.jsonl>',
      "an earlier run's results.jsonl: the instance times --schedule auto / longest-first order by, instead of the durations cache",
    )
    .option(
      '--durations-cache <dir>',
      "where each instance's last script time is kept for the next run's --schedule auto (default $SANDKIT_DURATIONS_CACHE, else ~/.cache/sandkit/durations)",
    )
    .option(
      '--no-durations-cache',
      'neither read nor write the durations cache (also SANDKIT_DURATIONS_CACHE=off)',
    )
    .option(
      '--skip-invalid',
      'run the valid rows when the dataset or predictions have invalid ones (refused otherwise), counting each bad row as a dataset error',
    )
    .option('--resume', 'keep finished instances in --out; rerun errored, cut-off and missing ones')
    .addOption(
      new Option(
        '--checkout <mode>',
        'how trees get into sandboxes: clone (local only), archive, in-place (/testbed of the image), auto (clone for local, else in-place with archive when the image has no /testbed)',
      )
        .choices(['auto', 'clone', 'archive', 'in-place'])
        .default('auto'),
    )
    .option('--json', 'print the run report as JSON instead of the summary')
    .option('--no-view', 'do not write the HTML report (OUT/report.html, see sandkit view)')
    .addHelpText('after', examples)
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : evalExitCode.usage);
    })
    .action(async (options: EvalCliOptions) => {
      process.exitCode = await evalAction(options);
    });
}

async function evalAction(options: EvalCliOptions): Promise<number> {
  const usageError = checkDatasetChoice(options) ?? (await missingSandboxPackages(options.sandbox));
  if (usageError !== null) {
    process.stderr.write(`sandkit eval: ${usageError}\n`);
    return evalExitCode.usage;
  }
  const controller = new AbortController();
  let interruptedBy: keyof typeof interruptSignals | undefined;
  const interruptedExit = (): number => interruptSignals[interruptedBy ?? 'SIGINT'];
  const onInterrupt = (signal: NodeJS.Signals): void => {
    // a second signal quits at once; the local adapter's exit hook still removes the sandbox dirs
    if (interruptedBy !== undefined) process.exit(interruptedExit());
    interruptedBy = signal as keyof typeof interruptSignals;
    process.stderr.write(
      `\ninterrupted: stopping (${signal}), destroying sandboxes, writing the report (Ctrl-C again to quit at once)\n`,
    );
    controller.abort();
  };
  for (const signal of Object.keys(interruptSignals)) process.on(signal, onInterrupt);
  try {
    if (options.example) {
      const example = await runExampleEval(
        {
          ...runOptions(options, controller.signal),
          createProgress: () => createStreamProgress(process.stderr),
        },
        (text) => process.stdout.write(text),
      );
      if (options.view)
        await printReports(
          [
            ...example.runDirs.map((dir) => ({ dirs: [dir] })),
            ...(example.runDirs.length === 2 ? [{ dirs: example.runDirs, label: 'gold against wrong' }] : []),
          ],
          'sandkit eval',
          (text) => process.stdout.write(text),
        );
      if (example.interrupted) return interruptedExit();
      return infraExit(example.infraErrorIds);
    }
    const run = await runEval({
      dataset: options.dataset as string,
      ...(options.predictions === undefined ? {} : { predictions: options.predictions }),
      gold: options.gold ?? false,
      ...(options.repos === undefined ? {} : { reposDir: options.repos }),
      ...(options.repoUrl === undefined ? {} : { repoUrl: options.repoUrl }),
      ...runOptions(options, controller.signal),
      ...(options.instanceIds === undefined ? {} : { instanceIds: options.instanceIds }),
      schedule: options.schedule,
      ...(options.durations === undefined ? {} : { durations: options.durations }),
      resume: options.resume ?? false,
      skipInvalid: options.skipInvalid ?? false,
      progress: createStreamProgress(process.stderr),
    });
    if (options.json) process.stdout.write(`${JSON.stringify(run.report, null, 2)}\n`);
    else process.stdout.write(await readFile(join(run.out, 'summary.md'), 'utf8'));
    if (options.view)
      await printReports([{ dirs: [run.out] }], 'sandkit eval', (text) =>
        (options.json ? process.stderr : process.stdout).write(text),
      );
    if (run.interrupted) return interruptedExit();
    return infraExit(run.report.infra_error_ids);
  } catch (error) {
    const usage = SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption;
    process.stderr.write(`sandkit eval: ${(error as Error).message}\n`);
    return usage ? evalExitCode.usage : evalExitCode.failed;
  } finally {
    for (const signal of Object.keys(interruptSignals)) process.off(signal, onInterrupt);
  }
}

/** The options `--example` and `--dataset` runs share, as given. */
function runOptions(options: EvalCliOptions, signal: AbortSignal) {
  return {
    out: options.out,
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    sandbox: options.sandbox,
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
    ...(options.network === undefined ? {} : { network: options.network }),
    ...imageOptions(options),
    patchPolicy: options.patchPolicy,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.maxSandboxes === undefined ? {} : { maxSandboxes: options.maxSandboxes }),
    ...(options.createsPerSecond === undefined ? {} : { createsPerSecond: options.createsPerSecond }),
    infraRetries: options.infraRetries ?? 2,
    timeoutSeconds: options.timeout,
    checkout: options.checkout,
    ...(options.durationsCache === undefined ? {} : { durationsCache: options.durationsCache }),
    signal,
  };
}

/** The image naming options as given (commander fills `--namespace` and `--tag` defaults). */
function imageOptions(options: EvalCliOptions) {
  return {
    ...(options.image === undefined ? {} : { image: options.image }),
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.tag === undefined ? {} : { tag: options.tag }),
    ...(options.imageTemplate === undefined ? {} : { imageTemplate: options.imageTemplate }),
  };
}

/** Exit 3, saying why, when any instance ended as an infrastructure error; else 0. */
function infraExit(infraErrorIds: readonly string[]): number {
  if (infraErrorIds.length === 0) return evalExitCode.completed;
  const shown = infraErrorIds.slice(0, 5).join(', ');
  const more = infraErrorIds.length > 5 ? ` and ${infraErrorIds.length - 5} more` : '';
  process.stderr.write(
    `sandkit eval: ${infraErrorIds.length === 1 ? '1 instance ended as an infrastructure error' : `${infraErrorIds.length} instances ended as infrastructure errors`} (${shown}${more}): no verdict for ${infraErrorIds.length === 1 ? 'it' : 'them'}, so the score is not comparable; see the notes in summary.md, fix the cause and rerun with --resume (exit ${evalExitCode.infraErrors})\n`,
  );
  return evalExitCode.infraErrors;
}

/** `--example` or `--dataset`, and nothing `--example` would ignore; the message, or `null`. */
function checkDatasetChoice(options: EvalCliOptions): string | null {
  if (!options.example)
    return options.dataset === undefined
      ? 'give --dataset <file> (your instances) or --example (the embedded dataset); see sandkit eval --help'
      : null;
  const clashing = [
    options.dataset === undefined ? '' : '--dataset',
    options.predictions === undefined ? '' : '--predictions',
    options.gold ? '--gold' : '',
    options.repos === undefined ? '' : '--repos',
    options.repoUrl === undefined ? '' : '--repo-url',
    options.instanceIds === undefined ? '' : '--instance-ids',
    options.resume ? '--resume' : '',
    options.json ? '--json' : '',
    options.schedule === 'auto' ? '' : '--schedule',
    options.durations === undefined ? '' : '--durations',
  ].filter((flag) => flag !== '');
  if (clashing.length === 0) return null;
  const mirrors = exampleMirrorsDir(exampleCacheDir(options.cacheDir));
  return [
    `--example runs the embedded dataset with its own predictions: drop ${clashing.join(', ')}.`,
    `To run the embedded dataset with your own options, run sandkit eval --example once (it builds its repositories into ${mirrors}), then:`,
    `  sandkit eval --dataset ${exampleDatasetFiles.instances} --predictions ${exampleDatasetFiles.wrongPredictions} --repos ${mirrors} --out <dir> <your options>`,
    '(--gold instead of --predictions grades its gold patches)',
  ].join('\n');
}

function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be an integer ≥ 0');
  return n;
}

function createRate(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < minCreatesPerSecond)
    throw new InvalidArgumentError(
      `must be a number of creates per second, at least ${minCreatesPerSecond} (your vendor's creation rate limit: 5 for E2B Pro, 1 for Hobby); leave it out for no limit`,
    );
  return n;
}

function timeoutSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > maxTimeoutSeconds)
    throw new InvalidArgumentError(
      `must be a positive number of seconds up to ${maxTimeoutSeconds} (about 24.8 days, what a timer holds)`,
    );
  return n;
}

function collectIds(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(/[\s,]+/).filter((id) => id !== '')];
}

/** Used when this file is run directly (before the `sandkit` entry point exists). */
export function createEvalProgram(): Command {
  const program = new Command('sandkit');
  registerEvalCommand(program);
  return program;
}
