/**
 * `sandkit run`: a coding agent over a SWE-bench-style dataset (`runAgentBenchmark`), optionally
 * graded at the end (`--eval`, `sandkit eval`'s machinery into `<out>/eval`).
 *
 * Exit codes: 0 every chosen instance finished (whatever its exit status), 1 the runner failed,
 * 2 usage error, 3 the provider refused the key (HTTP 401/403: the run stopped at the first such
 * answer, the message names the variable; `--resume` finishes the run), 130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM (partial trajectories written
 * as `aborted`, every sandbox destroyed; `--resume` finishes the run).
 * @module
 */
import { join } from 'node:path';
import type { LocalIsolation, NetworkPolicy } from '@sandkit/sandbox-adapters/local';
import { parseNetworkFlag } from '../eval/sandbox-confinement.js';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { EvalSandboxKind } from '../eval/eval-sandboxes.js';
import { createStreamProgress } from '../eval/report/progress.js';
import { runEval } from '../eval/run-eval.js';
import { formatCombinedSummary } from '../run/combined-summary.js';
import { agentExitStatuses } from '../run/exit-status.js';
import { runAgentBenchmark } from '../run/run-agent-benchmark.js';
import type { RunAgentBenchmarkOptions } from '../run/run-options.js';
import { positiveInteger } from './positive-integer.js';
import { createRunProgress } from './run-progress.js';
import { printReports } from './print-reports.js';
import { type CliModel, resolveCliModel, startExampleModel } from './run-model.js';
import { prepareExampleDataset } from './eval-example.js';
import { missingSandboxPackages } from './sandbox-packages.js';

/** Exit codes of `sandkit run`. */
export const runExitCode = {
  completed: 0,
  failed: 1,
  usage: 2,
  authRefused: 3,
  interrupted: 130,
  terminated: 143,
} as const;

interface RunCliOptions {
  dataset?: string;
  example?: boolean;
  model?: string;
  baseUrl?: string;
  price?: string;
  out: string;
  prompt?: string;
  stepLimit: number;
  costLimit?: number;
  totalCostLimit?: number;
  instanceTimeout: number;
  maxRetries: number;
  instanceIds?: string[];
  filter?: string;
  slice?: string;
  shuffle?: boolean;
  seed: number;
  resume?: boolean;
  redo?: boolean;
  sandbox: EvalSandboxKind;
  isolation?: LocalIsolation;
  network?: NetworkPolicy;
  image?: string;
  repos?: string;
  repoUrl?: string;
  cacheDir?: string;
  workers?: number;
  maxSandboxes?: number;
  createsPerSecond?: number;
  eval?: boolean;
  atif?: boolean;
  view: boolean;
}

const help = (): string => `
Examples:
  # the whole pipeline offline on the embedded dataset, with sandkit's scripted model stand-in
  # (an oracle that makes each gold patch with the tools), graded at the end: 6 of 6 resolved
  sandkit run --example --eval

  # a real model on your dataset, 8 at a time in Docker, then graded
  sandkit run --dataset verified.parquet --model anthropic:claude-sonnet-5-5 --sandbox docker \\
    --workers 8 --cost-limit 3 --out runs/sonnet --eval

Exit statuses of an instance (trajectory exit_status, run.json status_counts):
${Object.entries(agentExitStatuses)
  .map(([status, meaning]) => `  ${status.padEnd(17)}${meaning}`)
  .join('\n')}

Files written to --out:
  preds.json                        predictions keyed by instance id (rewritten after every instance)
  <id>/<id>.traj.json               the trajectory of each instance (sandkit-trajectory-1)
  <id>/<id>.atif.json               with --atif: the same in Harbor's ATIF v1.7
  run.json, summary.md              options, totals per status, tokens, cost, wall time
  eval/                             with --eval: sandkit eval's output for preds.json
  report.html                       the HTML report with every trajectory (and --eval's verdicts); --no-view: none

Exit codes: 0 finished, 1 the runner failed, 2 usage error, 3 the provider refused the key (the run
stops at the first 401/403), 130 SIGINT, 143 SIGTERM (--resume finishes the run)
`;

/**
 * Adds the `run` command to `program` (commander 14); its action sets `process.exitCode` to one of
 * {@link runExitCode}, and a usage error exits with 2.
 */
export function registerRunCommand(program: Command): Command {
  return program
    .command('run')
    .summary('run a coding agent over SWE-bench-style instances, each in a fresh sandbox')
    .description(
      "Run a model with sandkit's tools over SWE-bench-style instances: each instance in a fresh sandbox prepared as sandkit eval prepares it, the problem statement in a prompt template, step, cost and time limits, one exit status per instance and its patch in preds.json.",
    )
    .option('--dataset <file>', 'instances: SWE-bench JSON, JSONL or parquet; or --example')
    .option('--example', "the embedded dataset with sandkit's scripted model stand-in (offline)")
    .option(
      '--model <spec>',
      'anthropic:<id>, openai:<id>, openai-chat:<id> or openai-compatible:<id> (with --base-url)',
    )
    .option('--base-url <url>', "the provider's API URL (vLLM, llama.cpp, Ollama servers)")
    .option('--price <prices>', 'USD per million tokens: input=…,output=…[,cache-read=…,cache-write=…]')
    .option('--out <dir>', 'output directory', 'sandkit-run')
    .option(
      '--prompt <file>',
      'prompt template with {{problem_statement}} (default: the package prompts/swe-bench.md)',
    )
    .option('--step-limit <n>', 'model calls per instance at most', positiveInteger, 100)
    .option('--cost-limit <usd>', 'USD per instance, checked before each model call', positiveNumber)
    .option('--total-cost-limit <usd>', 'USD for the whole run; no instance starts past it', positiveNumber)
    .option('--instance-timeout <seconds>', 'wall clock per instance', positiveNumber, 1800)
    .option(
      '--max-retries <n>',
      'retries of a failed model request (429, 5xx), with backoff honouring retry-after',
      nonNegativeInteger,
      4,
    )
    .option('--instance-ids <ids...>', 'only these instances (space or comma separated)', collectIds)
    .option('--filter <regex>', 'only instance ids matching this regular expression (from the start)')
    .option(
      '--slice <start:stop>',
      'a slice of the instances (0-based, stop exclusive), after --shuffle and --filter',
    )
    .option('--shuffle', 'shuffle the instances (by --seed) before --filter and --slice')
    .option('--seed <n>', 'seed of --shuffle', nonNegativeInteger, 42)
    .option('--resume', 'keep instances of an earlier run in --out with a final status; run the rest')
    .option('--redo', 'run every chosen instance again')
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
    .option('--image <name>', 'Docker image / E2B template for instances without an "image" field')
    .option('--repos <dir>', 'local git mirrors: DIR/owner__name or DIR/owner__name.bundle')
    .option(
      '--repo-url <template>',
      'clone URL when no local mirror exists, e.g. https://github.com/{repo}.git',
    )
    .option('--cache-dir <dir>', 'where mirrors are kept (default ~/.cache/sandkit/mirrors)')
    .option('--workers <n>', 'instances at once (default: CPU count, at most 4)', positiveInteger)
    .option('--max-sandboxes <n>', 'sandboxes alive at once (default: 2 × workers)', positiveInteger)
    .option('--creates-per-second <n>', 'sandbox creates per second at most', positiveNumber)
    .option('--eval', 'grade preds.json at the end into OUT/eval and print one combined summary')
    .option('--atif', "also write each trajectory in Harbor's ATIF v1.7 (<id>/<id>.atif.json)")
    .option('--no-view', 'do not write the HTML report (OUT/report.html, see sandkit view)')
    .addHelpText('after', help)
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : runExitCode.usage);
    })
    .action(async (options: RunCliOptions) => {
      process.exitCode = await runAction(options);
    });
}

async function runAction(options: RunCliOptions): Promise<number> {
  const usage = (message: string): number => {
    process.stderr.write(`sandkit run: ${message}\n`);
    return runExitCode.usage;
  };
  if (options.example === (options.dataset !== undefined))
    return usage('give --dataset <file> (your instances) or --example (the embedded dataset)');
  if (options.example && options.model !== undefined)
    return usage('--example runs the scripted model stand-in: drop --model, or give --dataset');
  if (!options.example && options.model === undefined)
    return usage('give --model, e.g. --model anthropic:claude-sonnet-5-5 (key from ANTHROPIC_API_KEY)');
  const missing = await missingSandboxPackages(options.sandbox);
  if (missing !== null) return usage(missing);

  const controller = new AbortController();
  let exitOnSignal: number | null = null;
  const onSignal = (code: number) => (): void => {
    if (exitOnSignal !== null) process.exit(code);
    exitOnSignal = code;
    process.stderr.write(
      '\nstopping: aborting model calls and commands, writing trajectories, destroying sandboxes (again to quit at once)\n',
    );
    controller.abort();
  };
  const onInt = onSignal(runExitCode.interrupted);
  const onTerm = onSignal(runExitCode.terminated);
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  let model: CliModel | undefined;
  try {
    let dataset = options.dataset as string;
    let reposDir = options.repos;
    if (options.example) {
      const example = await prepareExampleDataset(options.cacheDir);
      dataset = example.dataset;
      reposDir = example.reposDir;
      model = await startExampleModel(dataset, options.price);
      process.stderr.write(`${model.notice}\n`);
    } else {
      model = resolveCliModel(options.model as string, options.baseUrl, options.price);
    }
    const progress = createRunProgress(process.stderr);
    const runOptions: RunAgentBenchmarkOptions = {
      dataset,
      out: options.out,
      model: model.model,
      modelName: model.name,
      costOf: model.costOf,
      ...(options.prompt === undefined ? {} : { promptFile: options.prompt }),
      stepLimit: options.stepLimit,
      ...(options.costLimit === undefined ? {} : { costLimitUsd: options.costLimit }),
      ...(options.totalCostLimit === undefined ? {} : { totalCostLimitUsd: options.totalCostLimit }),
      instanceTimeoutSeconds: options.instanceTimeout,
      maxRetries: options.maxRetries,
      ...(options.instanceIds === undefined ? {} : { instanceIds: options.instanceIds }),
      ...(options.filter === undefined ? {} : { filter: options.filter }),
      ...(options.slice === undefined ? {} : { slice: options.slice }),
      shuffle: options.shuffle ?? false,
      seed: options.seed,
      resume: options.resume ?? false,
      redo: options.redo ?? false,
      sandbox: options.sandbox,
      ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
      ...(options.network === undefined ? {} : { network: options.network }),
      ...(options.image === undefined ? {} : { image: options.image }),
      ...(reposDir === undefined ? {} : { reposDir }),
      ...(options.repoUrl === undefined ? {} : { repoUrl: options.repoUrl }),
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
      ...(options.workers === undefined ? {} : { workers: options.workers }),
      ...(options.maxSandboxes === undefined ? {} : { maxSandboxes: options.maxSandboxes }),
      ...(options.createsPerSecond === undefined ? {} : { createsPerSecond: options.createsPerSecond }),
      atif: options.atif ?? false,
      signal: controller.signal,
      onNotice: (message) => progress.notice(message),
      onPlan: ({ todo }) => progress.planned(todo),
      onInstanceStart: (id) => progress.started(id),
      onStep: (id, step) => progress.step(id, step),
      onInstanceDone: (t) => progress.finished(t),
    };
    const run = await runAgentBenchmark(runOptions).finally(() => progress.stop());
    process.stdout.write(run.summary);
    if (run.interrupted || controller.signal.aborted) return exitOnSignal ?? runExitCode.interrupted;
    if (run.stopped !== null) {
      process.stderr.write(`sandkit run: ${run.stopped.message}\n`);
      return runExitCode.authRefused;
    }
    if (options.eval) {
      const graded = await runEval({
        dataset,
        predictions: join(run.out, 'preds.json'),
        ...(reposDir === undefined ? {} : { reposDir }),
        ...(options.repoUrl === undefined ? {} : { repoUrl: options.repoUrl }),
        ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
        out: join(run.out, 'eval'),
        sandbox: options.sandbox,
        ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
        ...(options.network === undefined ? {} : { network: options.network }),
        ...(options.image === undefined ? {} : { image: options.image }),
        ...(options.workers === undefined ? {} : { workers: options.workers }),
        resume: false,
        ...(run.record.instances === 0 ? {} : { instanceIds: Object.keys(run.record.statuses) }),
        signal: controller.signal,
        progress: createStreamProgress(process.stderr),
      });
      process.stdout.write(`\n${formatCombinedSummary(run.record, graded.report)}`);
      if (graded.interrupted) return exitOnSignal ?? runExitCode.interrupted;
    }
    if (model.footer !== null) process.stdout.write(model.footer);
    if (options.view)
      await printReports([{ dirs: [run.out] }], 'sandkit run', (text) => process.stdout.write(text));
    return runExitCode.completed;
  } catch (error) {
    const isUsage = SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption;
    process.stderr.write(`sandkit run: ${(error as Error).message}\n`);
    return isUsage ? runExitCode.usage : runExitCode.failed;
  } finally {
    await model?.close();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be an integer ≥ 0');
  return n;
}

function collectIds(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(/[\s,]+/).filter((id) => id !== '')];
}
