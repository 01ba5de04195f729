/**
 * The body of one instance's evaluation, in a sandbox already acquired: upload the patches (and
 * the tree in archive mode), run the prepare script, run the tests, grade, write `report.json`
 * and `test_output.txt`.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCommand, pinnedGitCommand, quoteShellArgument, type SandboxSession } from '@sandkit/core';
import { frameworkOf } from '../load/swe-bench-instance.js';
import { checkoutStep } from './checkout-instance.js';
import type { EvalLog } from './eval-log.js';
import type { InstanceResult, SweBenchInstanceReport } from './eval-result.js';
import { StepError } from './eval-step-error.js';
import { gradeTests } from './grade.js';
import type { InstanceContext } from './instance-context.js';
import { parseTestStatuses } from './parse-test-statuses.js';
import { patchPaths, splitPatch } from './patch-files.js';
import { patchStepCommand, preparePatch, readPatchStep } from './patch-step.js';
import { type PrepareStep, runPrepareScript } from './prepare-script.js';
import { defaultTestCommand, testEnvironment } from './test-command.js';

/** Bytes of test output kept per stream (the rest is counted, not kept). */
const testOutputBytes = 64 * 1024 * 1024;

/**
 * Evaluates the instance in `session`, filling `result` and `report`.
 * @throws StepError with the failing step's kind (repo, setup, patch_apply, test_patch, timeout).
 */
export async function evaluate(
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
  const touched = new Set(
    splitPatch(prediction.model_patch ?? '').files.flatMap((file) => [file.oldPath, file.newPath]),
  );
  const restore = restoreTestFilesCommand(
    testFiles.filter((file) => touched.has(file.oldPath ?? file.newPath)),
  );
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
 * base version, undoing the model's edits; files it creates are removed if the model made them.
 * Called with only the test files the model patch touched (the others are at base already);
 * `null` when there are none.
 */
function restoreTestFilesCommand(files: ReturnType<typeof splitPatch>['files']): string | null {
  const modified = files.map((file) => file.oldPath).filter((path): path is string => path !== null);
  const created = files
    .filter((file) => file.oldPath === null && file.newPath !== null)
    .map((file) => file.newPath as string);
  const commands = [
    ...(modified.length > 0 ? [pinnedGitCommand('checkout', ['-q', 'HEAD', '--', ...modified])] : []),
    ...(created.length > 0 ? [formatCommand(['rm', '-f', '--', ...created])] : []),
  ];
  return commands.length === 0 ? null : commands.join(' && ');
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

/** Writes `report.json` in SWE-bench's shape: `{ [instance_id]: report }`. */
export async function writeReport(
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
