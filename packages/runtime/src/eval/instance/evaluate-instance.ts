/**
 * The body of one instance's evaluation, in a sandbox already acquired. The script is kept as
 * `eval.sh` beside `eval.log` (as the official harness keeps its own). Round trips: one
 * `writeFile` (the evaluation script, patches inside) and one `exec` (the script, test run
 * included; see `eval-script.ts`). Only when the image holds no repository at `/testbed` does the
 * tree go in (`git archive` on the host, one more `writeFile` and the script again); the local
 * adapter clones from the host mirror inside the script.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quoteShellArgument, type SandboxSession } from '@sandkit/core';
import { gradeLog } from '../grade/grade-log.js';
import { gradeLogBytes } from '../grade/grade-log-bytes.js';
import type { EvalLog } from './eval-log.js';
import type { InstanceResult, SweBenchInstanceReport } from './eval-result.js';
import { buildEvalScript } from './eval-script.js';
import { StepError } from './eval-step-error.js';
import { gitDirPaths } from './git-dir-paths.js';
import type { InstanceContext } from './instance-context.js';
import { inInstanceTree, preparationError, preparationStepNames } from './instance-tree.js';
import { preparePatch, readPatchStep } from './patch-step.js';
import { type PrepareStep, parsePrepareOutput, type StepOutcome } from './prepare-script.js';
import { testPlan } from './test-plan.js';
import { outputCutMarker, readWholeTestOutput, type WholeTestOutput } from './whole-test-output.js';

/** Bytes of script output the host keeps from the exec (beyond it the test step is read from the sandbox's whole log). */
const testOutputBytes = 64 * 1024 * 1024;

/**
 * Evaluates the instance in `session`, filling `result` and `report`. Calls `sandboxDone` once
 * the evaluation script has run (the last call into the sandbox), before parsing and grading.
 * @throws StepError with the failing step's kind (repo, setup, patch_apply, test_patch, timeout);
 *   `patch_apply` also, before the sandbox runs anything, for a model patch writing inside `.git/`.
 */
export async function evaluate(
  ctx: InstanceContext,
  session: SandboxSession,
  log: EvalLog,
  result: InstanceResult,
  report: SweBenchInstanceReport[string],
  started: number,
  sandboxDone: () => void,
): Promise<void> {
  const { instance, prediction, outDir } = ctx;
  const { client } = session;
  const scratchDir = `${session.workdir}/.sandkit-eval`;
  const scriptPath = `${scratchDir}/eval.sh`;
  const remaining = (step: string): number => {
    const left = ctx.timeoutMs - (performance.now() - started);
    if (left <= 0)
      throw new StepError(
        'timeout',
        `the instance timed out (--timeout ${ctx.timeoutMs / 1000} s) before ${step}`,
      );
    return left;
  };

  const plan = testPlan(instance);
  log.note(
    `test command (${plan.source}, parser ${plan.parser}${plan.officialParser ? `, official ${plan.officialParser}` : ''}): ${plan.test.testCommand}`,
  );
  const model = preparePatch(prediction.model_patch ?? '');
  // Before any apply step: GNU patch would write it, and git would run it (R11).
  const intoGit = gitDirPaths(prediction.model_patch ?? '');
  if (intoGit.length > 0)
    throw new StepError(
      'patch_apply',
      `the model patch writes inside .git/ (${intoGit.join(', ')}): refused before any apply step, as git runs what .git/ holds (hooks, config) during the harness's own git steps; a patch may change only the working tree`,
    );
  result.patch_files = model.files;
  result.skipped_binary_files = model.skippedBinary;
  for (const path of model.skippedBinary)
    log.note(`model patch: skipped binary file without patch data: ${path}`);

  const run = async (treeStep: PrepareStep, repoDir: string, archived: boolean) => {
    const script = buildEvalScript({
      repoDir,
      scratchDir,
      baseCommit: instance.base_commit,
      resetRef: archived ? 'HEAD' : instance.base_commit,
      treeStep,
      setupCommand: instance.setup_cmd ?? null,
      modelPatch: model.empty ? null : model.text,
      patchPolicy: ctx.patchPolicy,
      testPatch: instance.test_patch,
      test: plan.test,
    });
    log.note(`${treeStep.name}: $ ${treeStep.command}`);
    // the host's copy (a record for the user) is written while the sandbox's goes in
    await Promise.all([
      writeFile(join(outDir, 'eval.sh'), script),
      client.writeFile(scriptPath, script, { signal: ctx.signal }),
    ]);
    const exec = await log.exec(
      client,
      'eval script',
      `if command -v bash >/dev/null 2>&1; then exec bash ${quoteShellArgument(scriptPath)}; else exec sh ${quoteShellArgument(scriptPath)}; fi`,
      {
        timeoutMs: remaining('the evaluation script'),
        signal: ctx.signal,
        maxOutputBytes: testOutputBytes,
        logStdout: false,
        display: `bash ${scriptPath}  (${treeStep.name}, setup, model patch, tests; output framed per step)`,
      },
    );
    if (exec.aborted) throw new StepError('internal', 'aborted');
    result.script_ms = (result.script_ms ?? 0) + Math.round(exec.durationMs);
    const steps = parsePrepareOutput(exec.stdout);
    // cut by the host's cap during the tests: the sandbox keeps the whole log (R04)
    const whole: WholeTestOutput | null =
      exec.stdoutTruncated && steps.get('tests')?.cut === true
        ? await readWholeTestOutput(client, exec, ctx.signal)
        : null;
    return { exec, steps, whole };
  };

  const { outcome } = await inInstanceTree(ctx, session, log, scratchDir, run);
  const { exec, steps, whole } = outcome;
  // the rest is host-side (steps, grading, files): the sandbox's quota slot is not held for it
  sandboxDone();
  const order = [...preparationStepNames, 'model patch', 'tests'];
  let failed: string | null = null;
  for (const name of order) {
    const step = steps.get(name);
    if (step === undefined) continue;
    if (name !== 'tests') log.step(name, step.exitCode, step.output);
    if (step.exitCode !== 0) failed ??= name;
  }
  if (exec.timedOut && failed !== null && failed !== 'tests')
    throw new StepError('timeout', `${failed} timed out (--timeout ${ctx.timeoutMs / 1000} s)`);
  const tests: StepOutcome | undefined = steps.get('tests');
  if (tests === undefined && failed === null) {
    if (exec.timedOut)
      throw new StepError(
        'timeout',
        `the evaluation script timed out before the tests (--timeout ${ctx.timeoutMs / 1000} s)`,
      );
    throw new StepError(
      'internal',
      `the evaluation script ended before the tests (exit ${exec.exitCode ?? exec.signal}); see eval.log`,
    );
  }
  const output = (name: string): string => steps.get(name)?.output ?? '';
  const prepared = preparationError(failed, steps, instance.base_commit);
  if (prepared !== null) throw prepared;
  if (failed === 'model patch')
    throw new StepError(
      'patch_apply',
      `the model patch does not apply (${ctx.patchPolicy === 'official' ? 'git apply, git apply --reject, patch --fuzz=5' : 'git apply, then patch --fuzz=0'}): ${firstProblem(output('model patch'))}; see eval.log`,
    );
  const applied = model.empty
    ? { applied: true, method: 'none' as const, offsets: [] }
    : readPatchStep(output('model patch'), steps.get('model patch')?.exitCode ?? null);
  result.patch_method = applied.method;
  result.patch_offsets = applied.offsets;
  report.patch_successfully_applied = true;
  if (applied.method !== null) report.patch_applied_with = applied.method;
  log.note(`model patch applied with ${applied.method}: ${model.files.join(', ')}`);

  // The test step's output is test_output.txt in the official layout (markers included).
  const testOutput = tests?.output ?? '';
  result.tests_timed_out = exec.timedOut;
  const gradeInput = {
    parser: plan.parser,
    officialParser: plan.officialParser,
    failOnly: plan.failOnly,
    FAIL_TO_PASS: instance.FAIL_TO_PASS,
    PASS_TO_PASS: instance.PASS_TO_PASS,
  };
  const timedOutEnd = '\n>>>>> End Test Output\n';
  let graded: ReturnType<typeof gradeLog>;
  if (whole === null) {
    await writeFile(join(outDir, 'test_output.txt'), `${testOutput}\n`);
    log.note(
      `tests: ${tests === undefined ? 'cut off' : `exit ${tests.exitCode}`}; output in test_output.txt`,
    );
    graded = gradeLog(exec.timedOut ? `${testOutput}${timedOutEnd}` : testOutput, gradeInput);
  } else if (whole.output === null) {
    // the kept head, marked so that `sandkit grade` gives the same verdict and reason
    await writeFile(join(outDir, 'test_output.txt'), `${testOutput}\n${outputCutMarker}${whole.reason}\n`);
    log.note(`tests: ${whole.reason}; the kept head is in test_output.txt`);
    throw new StepError('incomplete_log', `not evaluated: ${whole.reason}`);
  } else {
    const newline = Buffer.from('\n');
    await writeFile(join(outDir, 'test_output.txt'), Buffer.concat([whole.output, newline]));
    log.note(
      `tests: ${whole.exitCode === null ? 'killed before they ended' : `exit ${whole.exitCode}`}; output (${whole.output.length} bytes, read whole from the sandbox's log ${exec.outputLog?.stdout}) in test_output.txt`,
    );
    graded = gradeLogBytes(
      exec.timedOut ? Buffer.concat([whole.output, Buffer.from(timedOutEnd)]) : whole.output,
      gradeInput,
    );
  }
  if (graded.testPatchFailed)
    throw new StepError(
      'test_patch',
      `the test patch does not apply, so the instance cannot be graded: ${graded.testPatchError}; see test_output.txt`,
    );
  // a log that was not evaluated (a marker missing, a bad code) is graded as `sandkit grade` grades it
  if (!graded.evaluated)
    throw new StepError(
      graded.notEvaluatedKind ?? 'incomplete_log',
      `not evaluated: ${graded.notEvaluatedReason}`,
    );
  if (graded.parserMissing)
    throw new StepError('internal', `no "${plan.parser}" parser in this build of @sandkit/tools`);
  log.note(
    `parsed ${graded.statuses.size} test statuses with the ${plan.parser} parser${graded.hadAnsi ? ' (ANSI colour stripped)' : ''}`,
  );
  for (const collision of graded.collisions)
    log.note(
      `ids ${collision.from.map((entry) => `${JSON.stringify(entry.id)} ${entry.status}`).join(', ')} all become the official id ${JSON.stringify(collision.official)}: graded ${collision.status}`,
    );
  const grade = graded.grade;
  report.resolved = graded.resolved;
  report.tests_status = grade.tests_status;
  result.status = graded.resolved ? 'resolved' : 'unresolved';
  result.missing_tests = grade.missing;
  result.prefix_matches = grade.prefixMatches;
  result.id_collisions = graded.collisions.map((c) => ({
    official: c.official,
    from: c.from.map((f) => f.id),
  }));
  result.skipped_fail_to_pass = grade.skippedFailToPass;
  result.f2p.success = grade.tests_status.FAIL_TO_PASS.success.length;
  result.p2p.success = grade.tests_status.PASS_TO_PASS.success.length;
  for (const match of grade.prefixMatches) {
    log.note(
      `${match.list} id ${JSON.stringify(match.test)} is not in the log; it only matches by prefix: ${match.logged.map((id) => JSON.stringify(id)).join(', ')}`,
    );
  }
  await writeReport(outDir, instance.instance_id, report);
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
