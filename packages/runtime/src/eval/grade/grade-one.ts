/**
 * `gradeOne`: grades one instance's log directory (`test_output.txt`, with `patch.diff` and an
 * official `report.json` beside it) against its dataset row, for `runGrade`, in the main thread or
 * in a worker thread (`grade-worker.ts`). Its input and result are plain data (structured-clone
 * safe), and it touches no shared state: what it finds wrong comes back in `problems`, so that
 * results are the same in whatever order and thread the logs are graded.
 * @module
 */

import { closeSync, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type InstanceResult,
  initialResult,
  isInfraError,
  type SweBenchInstanceReport,
} from '../instance/eval-result.js';
import type { PatchMethod } from '../instance/patch-step.js';
import type { TestPlan } from '../instance/test-plan.js';
import type { RecordError } from '../load/read-records.js';
import type { SweBenchInstance, SweBenchPrediction } from '../load/swe-bench-instance.js';
import type { FoundLog } from './find-logs.js';
import { decodeUtf8 } from '../load/decode-utf8.js';
import { gradeLog } from './grade-log.js';
import { startTestOutput } from '../instance/eval-markers.js';
import { gradeLogBytes } from './grade-log-bytes.js';
import { compareWithOfficial, readOfficialReport } from './official-agreement.js';

/**
 * How to read an instance's log, from `testPlan` (computed by the caller, so that a worker thread
 * loads no spec table), or `{ invalid }`: why the row cannot be graded (`testPlan` threw).
 */
export type GradePlan =
  | Pick<TestPlan, 'parser' | 'officialParser' | 'failOnly' | 'source'>
  | { invalid: string };

/** One instance to grade. */
export interface GradeTask {
  instance: SweBenchInstance;
  plan: GradePlan;
  found: FoundLog;
  /** Its prediction from `--predictions`; absent without that file (then `patch.diff` beside the log says). */
  prediction?: SweBenchPrediction;
}

/** What grading one instance gives. */
export interface GradedInstance {
  result: InstanceResult;
  /** The text of its `report.json` (SWE-bench's shape, see {@link instanceReportJson}), made where it was graded. */
  reportJson: string;
  /** Files beside the log that could not be used, for the run report's `invalid_records`, in the order met. */
  problems: RecordError[];
}

/** {@link gradeOne}'s result, before the report becomes text. */
interface Graded {
  result: InstanceResult;
  report: SweBenchInstanceReport;
  problems: RecordError[];
}

/** A `report.json` as `sandkit grade` writes it: JSON with a 4-space indent, as the official harness's, and a final newline. */
export function instanceReportJson(report: SweBenchInstanceReport): string {
  return `${JSON.stringify(report, null, 4)}\n`;
}

/**
 * Grades one instance; `result.duration_ms` is the time it took here. Never throws: an error
 * thrown while grading (a bug) becomes the instance's `internal` error, see {@link failedGrade}.
 * Synchronous, files read with `readFileSync`: in a worker thread nothing else waits, and in the
 * calling thread a log's read costs less than its parse (and less than `fs/promises`' four
 * thread-pool round trips).
 */
export function gradeTask(task: GradeTask): GradedInstance {
  const started = performance.now();
  try {
    const { result, report, problems } = gradeOne(task);
    result.duration_ms = Math.round(performance.now() - started);
    return { result, reportJson: instanceReportJson(report), problems };
  } catch (error) {
    const failed = failedGrade(
      task,
      `grading this log threw ${describeError(error)}: a sandkit bug, please report it with the log`,
    );
    failed.result.duration_ms = Math.round(performance.now() - started);
    return failed;
  }
}

/**
 * The grade of an instance whose grading failed (threw, or its worker thread died): an `internal`
 * error with `message`, not resolved, nothing applied.
 */
export function failedGrade(task: GradeTask, message: string): GradedInstance {
  const id = task.instance.instance_id;
  const patch = task.prediction === undefined ? undefined : task.prediction.model_patch;
  const result = initialResult(id, {
    model_name_or_path: task.prediction?.model_name_or_path ?? task.found.model,
    error_kind: 'internal',
    error: message,
    log_dir: task.found.dir,
    f2p: { success: 0, total: task.instance.FAIL_TO_PASS.length },
    p2p: { success: 0, total: task.instance.PASS_TO_PASS.length },
  });
  const report: SweBenchInstanceReport = {
    [id]: {
      patch_is_None: patch === null,
      patch_exists: patch === undefined || (patch !== null && patch.trim() !== ''),
      patch_successfully_applied: false,
      resolved: false,
    },
  };
  return { result, reportJson: instanceReportJson(report), problems: [] };
}

/** `Name: message` of a thrown value. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Grades one log. What it notices about the files beside the log goes to the result's
 * `grade_notes`; a file that cannot be used also goes to `problems` (the run report's
 * `invalid_records`).
 */
function gradeOne(task: GradeTask): Graded {
  const { instance, found, prediction } = task;
  const problems: RecordError[] = [];
  const id = instance.instance_id;
  const { dir } = found;
  const patchRead = prediction !== undefined ? null : readOptional(join(dir, 'patch.diff'));
  const patch = prediction !== undefined ? prediction.model_patch : (patchRead?.text ?? null);
  const result = initialResult(id, {
    model_name_or_path: prediction?.model_name_or_path ?? found.model,
    infra_error: false,
    log_dir: dir,
    f2p: { success: 0, total: instance.FAIL_TO_PASS.length },
    p2p: { success: 0, total: instance.PASS_TO_PASS.length },
  });
  const notes: string[] = [];
  const problem = (file: string, message: string, note: boolean): void => {
    if (note) notes.push(message);
    problems.push({ file, position: 'log', instanceId: id, field: null, message: `${file}: ${message}` });
  };
  const entry: SweBenchInstanceReport[string] = {
    patch_is_None: prediction !== undefined && patch === null,
    patch_exists:
      prediction === undefined
        ? patch === null || patch.trim() !== ''
        : patch !== null && patch.trim() !== '',
    patch_successfully_applied: false,
    resolved: false,
  };
  const report: SweBenchInstanceReport = { [id]: entry };
  if (patchRead?.error !== undefined)
    problem(
      join(dir, 'patch.diff'),
      `cannot be read (${patchRead.error}): graded as if the patch were not empty; make it readable`,
      true,
    );
  const done = (): Graded => {
    if (notes.length > 0) result.grade_notes = notes;
    return { result, report, problems };
  };
  if (!entry.patch_exists) {
    result.status = 'empty_patch';
    return done();
  }
  /** The row ends as an invalid record: nothing to grade. */
  const invalidRecord = (message: string) => {
    result.error_kind = 'invalid_record';
    result.infra_error = true;
    result.error = message;
    return done();
  };
  if ('invalid' in task.plan) return invalidRecord(task.plan.invalid);
  const plan = task.plan;
  if (plan.source === 'default' && instance.test_framework === undefined)
    notes.push(
      `${instance.repo} is not in the SWE-bench spec table and the row has no test_framework: graded with sandkit's fallback ${plan.parser} parser, which may not read this repository's log; the official harness has no parser for it either: give the row's test_framework (and test_cmd) if ${plan.parser} is wrong`,
    );
  if (found.logIsDirectory) {
    const message = `test_output.txt is a directory, not a log: nothing to grade; put the instance's test log there as a file (the official harness writes one per instance)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  if (found.logNotRegular !== undefined) {
    const message = `test_output.txt is ${found.logNotRegular}, not a regular file: not read, nothing graded; put the instance's test log there as a file (the official harness writes one per instance)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  const logRead = readOptionalFile(join(dir, 'test_output.txt'), maxLogBytes);
  if (logRead.tooLarge !== undefined) {
    const message = `test_output.txt is ${logRead.tooLarge} bytes, over the ${describeBytes(maxLogBytes)} (${maxLogBytes} bytes) sandkit grade reads: not read, nothing graded; keep only the instance's test run in it (from "${startTestOutput}" to the end marker)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  if (logRead.error !== undefined) {
    const message = `test_output.txt cannot be read (${logRead.error}): nothing graded; make it readable (a log over 512 MiB is beyond what sandkit grade reads)`;
    problem(join(dir, 'test_output.txt'), message, false); // the row's error says it
    return invalidRecord(message);
  }
  const log = logRead.content ?? '';
  const input = { ...plan, FAIL_TO_PASS: instance.FAIL_TO_PASS, PASS_TO_PASS: instance.PASS_TO_PASS };
  const graded = typeof log === 'string' ? gradeLog(log, input) : gradeLogBytes(log, input);
  const reportFile = join(dir, 'report.json');
  const officialRead = readOptional(reportFile);
  const officialText = officialRead.text;
  /** The patch step sandkit eval's own report.json records; the official report.json has none. */
  let patchAppliedWith: PatchMethod | undefined;
  if (officialRead.error !== undefined)
    problem(
      reportFile,
      `cannot be read (${officialRead.error}): not compared with the official verdict; make it readable`,
      true,
    );
  else if (officialText !== null) {
    const beside = readOfficialReport(officialText, id, existsSync(join(dir, 'eval.log')));
    if (beside.kind === 'official')
      result.official = compareWithOfficial(graded, beside.report, instance, plan.officialParser, log);
    else if (beside.kind === 'sandkit') {
      patchAppliedWith = beside.patchAppliedWith;
      notes.push(
        "report.json here is sandkit's own (written by sandkit eval, eval.log beside it), not the official harness's: not compared",
      );
    } else
      problem(
        reportFile,
        `the official report.json ${beside.problem}: not compared with the official verdict; regenerate it with the official harness or remove it`,
        true,
      );
  }
  if (!graded.evaluated) {
    result.error_kind = graded.notEvaluatedKind ?? 'patch_apply';
    result.infra_error = isInfraError(result.error_kind);
    result.error = `not evaluated: ${graded.notEvaluatedReason}`;
    return done();
  }
  entry.patch_successfully_applied = true;
  if (patchAppliedWith !== undefined) {
    result.patch_method = patchAppliedWith;
    entry.patch_applied_with = patchAppliedWith;
  }
  if (graded.testPatchFailed) {
    result.error_kind = 'test_patch';
    result.infra_error = true;
    result.error = `the test patch did not apply: ${graded.testPatchError}; never resolved`;
    entry.tests_status = graded.grade.tests_status;
    return done();
  }
  if (graded.parserMissing) {
    result.error_kind = 'internal';
    result.infra_error = true;
    result.error = `no "${plan.parser}" parser in this build of @sandkit/tools`;
    return done();
  }
  entry.resolved = graded.resolved;
  entry.tests_status = graded.grade.tests_status;
  result.status = graded.resolved ? 'resolved' : 'unresolved';
  result.missing_tests = graded.grade.missing;
  result.prefix_matches = graded.grade.prefixMatches;
  result.skipped_fail_to_pass = graded.grade.skippedFailToPass;
  result.id_collisions = graded.collisions.map((c) => ({
    official: c.official,
    from: c.from.map((f) => f.id),
  }));
  result.f2p.success = graded.grade.tests_status.FAIL_TO_PASS.success.length;
  result.p2p.success = graded.grade.tests_status.PASS_TO_PASS.success.length;
  return done();
}

/**
 * A file beside a log: its text, `null` when it does not exist, or why it cannot be read (see
 * {@link readOptionalFile}).
 */
function readOptional(file: string): { text: string | null; error?: string } {
  const { content, error } = readOptionalFile(file);
  if (error !== undefined) return { text: null, error };
  return { text: content === null || typeof content === 'string' ? content : decodeUtf8(content) };
}

/**
 * A file beside a log: its bytes (up to {@link maxBufferedBytes}; the text of a larger one),
 * `null` when it does not exist, or why it cannot be read (no permission, a directory, over
 * `maxBytes`, a text over V8's string limit) so that one bad file makes one row's problem, not a
 * failed run. A file over `maxBytes` (default 2 GiB − 1, the most `fs.readFile` reads) is refused
 * from its size, unread (`readFileSync` would read it all first), with its size in `tooLarge`.
 */
function readOptionalFile(
  file: string,
  maxBytes = maxReadBytes,
): { content: Buffer | string | null; error?: string; tooLarge?: number } {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const { size } = fstatSync(fd);
    if (size > maxBytes)
      return {
        content: null,
        error: `it is ${size} bytes, over the ${describeBytes(maxBytes)} (${maxBytes} bytes) read here`,
        tooLarge: size,
      };
    return { content: size > maxBufferedBytes ? readFileSync(fd, 'utf8') : readFileSync(fd) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { content: null };
    return { content: null, error: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The largest file `fs.readFile` reads (`kIoMaxLength`, 2 GiB − 1). */
const maxReadBytes = 2 ** 31 - 1;

/**
 * The largest `test_output.txt` graded: 512 MiB, the documented limit (about V8's longest string,
 * `0x1fffffe8` characters, which a log over 64 MiB becomes). A larger log is refused from its
 * size before any byte is read: reading a 600 MB one took 14 s and 1.2 GB of memory to fail.
 */
const maxLogBytes = 512 * 1024 * 1024;

/** `2 GiB − 1` for {@link maxReadBytes}, `512 MiB` for {@link maxLogBytes}. */
function describeBytes(bytes: number): string {
  return bytes === maxReadBytes ? '2 GiB − 1' : `${bytes / 1024 / 1024} MiB`;
}

/** Files up to this size are read as bytes (a log graded from them, another file decoded by {@link decodeUtf8}); larger ones as text. */
const maxBufferedBytes = 64 * 1024 * 1024;
