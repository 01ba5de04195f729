/**
 * Evaluates one prediction on one instance in a sandbox of its own: check out `base_commit`,
 * run `setup_cmd`, apply the model patch, restore and patch the test files, run the tests, parse
 * every test's status, grade, and write `patch.diff`, `test_output.txt`, `eval.log` and
 * `report.json` into the instance's output directory. The sandbox is destroyed on every path
 * (never reused: each instance starts from a fresh one).
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  formatCommand,
  quoteShellArgument,
  SandboxError,
  type SandboxProvider,
  type SandboxSession,
  SandkitError,
} from '@sandkit/core';
import { type CheckoutMode, checkoutStep } from './checkout-instance.js';
import { EvalLog } from './eval-log.js';
import {
  type ErrorKind,
  type InstanceResult,
  isInfraError,
  type SweBenchInstanceReport,
} from './eval-result.js';
import { gradeTests } from './grade.js';
import { parseTestStatuses } from './parse-test-statuses.js';
import { patchPaths, splitPatch } from './patch-files.js';
import { patchStepCommand, preparePatch, readPatchStep } from './patch-step.js';
import { type PrepareStep, runPrepareScript } from './prepare-script.js';
import type { RepoStore } from './repo-store.js';
import { frameworkOf, type SweBenchInstance, type SweBenchPrediction } from './swe-bench-instance.js';
import { defaultTestCommand, testEnvironment } from './test-command.js';

/** Everything one instance's evaluation needs. */
export interface InstanceContext {
  instance: SweBenchInstance;
  prediction: SweBenchPrediction;
  /** The provider to take the sandbox from (called once; a throw is a `sandbox` error). */
  provider: () => Promise<SandboxProvider>;
  store: RepoStore;
  checkoutMode: CheckoutMode;
  /** Host directory for this instance's files. */
  outDir: string;
  /** Wall-time budget for the whole instance, in ms. */
  timeoutMs: number;
  /** Aborting (Ctrl-C) kills the running command and destroys the sandbox; the result is then `null`. */
  signal: AbortSignal;
}

/** Bytes of test output kept per stream (the rest is counted, not kept). */
const testOutputBytes = 64 * 1024 * 1024;

class StepError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs the instance. Returns its result, or `null` when `signal` aborted it (nothing is recorded
 * then, so a resumed run evaluates it again).
 */
export async function runInstance(ctx: InstanceContext): Promise<InstanceResult | null> {
  const { instance, prediction, outDir } = ctx;
  const started = performance.now();
  const log = new EvalLog();
  await mkdir(outDir, { recursive: true });
  const patch = prediction.model_patch;
  await writeFile(join(outDir, 'patch.diff'), patch ?? '');
  const result: InstanceResult = {
    instance_id: instance.instance_id,
    model_name_or_path: prediction.model_name_or_path,
    status: 'error',
    infra_error: false,
    patch_method: null,
    patch_files: [],
    skipped_binary_files: [],
    patch_offsets: [],
    missing_tests: [],
    prefix_matches: [],
    tests_timed_out: false,
    f2p: { success: 0, total: instance.FAIL_TO_PASS.length },
    p2p: { success: 0, total: instance.PASS_TO_PASS.length },
    duration_ms: 0,
    finished_at: '',
  };
  const report: SweBenchInstanceReport[string] = {
    patch_is_None: patch === null,
    patch_exists: patch !== null && patch.trim() !== '',
    patch_successfully_applied: false,
    resolved: false,
  };
  let session: SandboxSession | undefined;
  try {
    if (!report.patch_exists) {
      result.status = 'empty_patch';
      log.note('the prediction has no patch: nothing to evaluate');
      await writeReport(outDir, instance.instance_id, report);
    } else {
      session = await (await ctx.provider()).acquire({
        signal: ctx.signal,
        expectedDurationMs: ctx.timeoutMs,
      });
      log.note(`sandbox ${session.id} from ${session.providerName}, workdir ${session.workdir}`);
      await evaluate(ctx, session, log, result, report, started);
    }
  } catch (error) {
    if (ctx.signal.aborted) {
      log.note('aborted (interrupt): not recorded, a resumed run evaluates it again');
      await writeFile(join(outDir, 'eval.log'), log.text());
      return null;
    }
    const kind: ErrorKind =
      error instanceof StepError
        ? error.kind
        : SandboxError.isInstance(error)
          ? 'sandbox'
          : SandkitError.isInstance(error) && error.code === 'not_found'
            ? 'repo'
            : 'internal';
    result.status = 'error';
    result.error_kind = kind;
    result.infra_error = isInfraError(kind);
    result.error = (error as Error).message;
    log.note(`error (${kind}): ${result.error}`);
    if (kind === 'patch_apply') await writeReport(outDir, instance.instance_id, report);
  } finally {
    if (session !== undefined) {
      await session.release({ destroy: true }).catch((error: unknown) => {
        log.note(`releasing sandbox ${session?.id} failed: ${(error as Error).message}`);
      });
    }
  }
  result.duration_ms = Math.round(performance.now() - started);
  result.finished_at = new Date().toISOString();
  log.note(
    `finished: ${result.status}${result.error_kind ? ` (${result.error_kind})` : ''} in ${result.duration_ms} ms`,
  );
  await writeFile(join(outDir, 'eval.log'), log.text());
  return result;
}

async function evaluate(
  ctx: InstanceContext,
  session: SandboxSession,
  log: EvalLog,
  result: InstanceResult,
  report: SweBenchInstanceReport[string],
  started: number,
): Promise<void> {
  const { instance, prediction, outDir } = ctx;
  const { client } = session;
  const repoDir = `${session.workdir}/repo`;
  const scratchDir = `${session.workdir}/.sandkit-eval`;
  const remaining = (step: string): number => {
    const left = ctx.timeoutMs - (performance.now() - started);
    if (left <= 0)
      throw new StepError(
        'timeout',
        `the instance timed out (--timeout ${ctx.timeoutMs / 1000} s) before ${step}`,
      );
    return left;
  };

  const model = preparePatch(prediction.model_patch ?? '');
  const tests = preparePatch(instance.test_patch);
  result.patch_files = model.files;
  result.skipped_binary_files = model.skippedBinary;
  for (const path of model.skippedBinary)
    log.note(`model patch: skipped binary file without patch data: ${path}`);
  const modelPath = `${scratchDir}/model.patch`;
  const testPath = `${scratchDir}/test.patch`;
  await client.writeFile(modelPath, model.text, { signal: ctx.signal });
  await client.writeFile(testPath, tests.text, { signal: ctx.signal });
  const steps: PrepareStep[] = [
    await checkoutStep({
      client,
      log,
      store: ctx.store,
      mode: ctx.checkoutMode,
      repo: instance.repo,
      commit: instance.base_commit,
      repoDir,
      workdir: session.workdir,
      scratchDir,
      signal: ctx.signal,
    }),
  ];
  if (instance.setup_cmd !== undefined)
    steps.push({ name: 'setup', command: instance.setup_cmd, cwd: repoDir });
  if (!model.empty) steps.push({ name: 'model patch', command: patchStepCommand(modelPath), cwd: repoDir });
  const testFiles = splitPatch(instance.test_patch).files;
  const restore = restoreTestFilesCommand(testFiles);
  if (restore !== null) steps.push({ name: 'restore test files', command: restore, cwd: repoDir });
  steps.push({ name: 'test patch', command: patchStepCommand(testPath), cwd: repoDir });

  const prepared = await runPrepareScript(client, log, steps, quoteShellArgument, {
    timeoutMs: remaining('checkout'),
    signal: ctx.signal,
  });
  if (prepared.exec.aborted) throw new StepError('internal', 'aborted');
  const failure = (name: string) => prepared.steps.get(name)?.output ?? '';
  const applied = model.empty
    ? { applied: true, method: 'none' as const, offsets: [], failure: '' }
    : readPatchStep(failure('model patch'), prepared.steps.get('model patch')?.exitCode ?? null);
  if (prepared.failed !== null && prepared.exec.timedOut)
    throw new StepError('timeout', `${prepared.failed} timed out (--timeout ${ctx.timeoutMs / 1000} s)`);
  switch (prepared.failed) {
    case 'checkout':
      throw new StepError(
        'repo',
        `checkout of ${instance.base_commit} failed: ${lastLine(failure('checkout'))}`,
      );
    case 'setup':
      throw new StepError(
        'setup',
        `setup_cmd failed (exit ${prepared.steps.get('setup')?.exitCode}); see eval.log`,
      );
    case 'model patch':
      throw new StepError(
        'patch_apply',
        `the model patch does not apply (git apply, then patch --fuzz=0): ${firstProblem(failure('model patch'))}; see eval.log`,
      );
    case 'restore test files':
    case 'test patch':
      throw new StepError(
        'test_patch',
        `the test patch does not apply, so the instance cannot be graded: ${firstProblem(failure(prepared.failed))}; see eval.log`,
      );
  }
  result.patch_method = applied.method;
  result.patch_offsets = applied.offsets;
  report.patch_successfully_applied = true;
  log.note(`model patch applied with ${applied.method}: ${model.files.join(', ')}`);

  const framework = frameworkOf(instance);
  const command = instance.test_cmd ?? defaultTestCommand(framework, patchPaths(testFiles));
  const run = await log.exec(client, 'tests', `{ ${command}\n} 2>&1`, {
    cwd: repoDir,
    env: { ...testEnvironment },
    timeoutMs: remaining('the tests'),
    signal: ctx.signal,
    maxOutputBytes: testOutputBytes,
    logStdout: false,
  });
  if (run.aborted) throw new StepError('internal', 'aborted');
  await writeFile(join(outDir, 'test_output.txt'), run.stdout);
  result.tests_timed_out = run.timedOut;
  const statuses = parseTestStatuses(run.stdout, framework);
  log.note(`parsed ${statuses.size} test statuses with the ${framework} parser (output in test_output.txt)`);
  const grade = gradeTests(statuses, instance);
  report.resolved = grade.resolved;
  report.tests_status = grade.tests_status;
  result.status = grade.resolved ? 'resolved' : 'unresolved';
  result.missing_tests = grade.missing;
  result.prefix_matches = grade.prefixMatches;
  result.f2p.success = grade.tests_status.FAIL_TO_PASS.success.length;
  result.p2p.success = grade.tests_status.PASS_TO_PASS.success.length;
  for (const match of grade.prefixMatches) {
    log.note(
      `${match.list} id ${JSON.stringify(match.test)} is not in the log; it only matches by prefix: ${match.logged.map((id) => JSON.stringify(id)).join(', ')}`,
    );
  }
  await writeReport(outDir, instance.instance_id, report);
}

/**
 * As SWE-bench does before applying the test patch: test files it modifies go back to their
 * base version (undoing any model edit); files it creates are removed if the model made them.
 * `null` when the test patch touches no file.
 */
function restoreTestFilesCommand(files: ReturnType<typeof splitPatch>['files']): string | null {
  const modified = files.map((file) => file.oldPath).filter((path): path is string => path !== null);
  const created = files
    .filter((file) => file.oldPath === null && file.newPath !== null)
    .map((file) => file.newPath as string);
  const commands = [
    ...(modified.length > 0 ? [formatCommand(['git', 'checkout', '-q', 'HEAD', '--', ...modified])] : []),
    ...(created.length > 0 ? [formatCommand(['rm', '-f', '--', ...created])] : []),
  ];
  return commands.length === 0 ? null : commands.join(' && ');
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

async function writeReport(
  outDir: string,
  id: string,
  report: SweBenchInstanceReport[string],
): Promise<void> {
  await writeFile(join(outDir, 'report.json'), `${JSON.stringify({ [id]: report }, null, 4)}\n`);
}

/** The first `error:` line of git apply (or the first failing hunk of patch) in a failure text. */
function firstProblem(failure: string): string {
  const lines = failure.split('\n').map((line) => line.trim());
  return (
    lines.find((line) => line.startsWith('error:') && !line.endsWith(':')) ??
    lines.find((line) => /FAILED|can't find file/.test(line)) ??
    'no hunk applied'
  );
}
