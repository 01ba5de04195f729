/**
 * One instance of a `sandkit eval` or `sandkit grade` output as the report shows it: its
 * `results.jsonl` line, `report.json` (tests by list), the test log cut to windows around the
 * lines that decided each test, the patch and the patch chain from `eval.log`, and the official
 * agreement.
 * @module
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { InstanceResult, SweBenchInstanceReport } from '../../eval/instance/eval-result.js';
import { stripAnsi } from '../../eval/instance/parse-test-statuses.js';
import type { ViewInstance, ViewLog, ViewTest } from '../model/view-data.js';
import { findDecidingLines } from './deciding-lines.js';
import { readPatchSteps } from './read-patch-steps.js';
import { readTextFile } from './read-text-file.js';
import { relativeHref } from './relative-href.js';
import { repoOfId } from './repo-of-id.js';
import { verdictReason } from './verdict-reason.js';
import { windowLog } from './window-log.js';

/**
 * Bytes of a test log a report reads: a larger one (sandkit keeps logs whole past the 64 MiB host
 * cap, R04) is linked, not read, so that writing the report never holds it in memory.
 */
export const maxLogReadBytes = 32 * 1024 * 1024;

/** Characters of a patch a report embeds; past it the patch is cut with a note. */
export const maxPatchChars = 256 * 1024;

/** Where an instance's files are. */
export interface GradedInstanceFiles {
  /** `instances/<id>/report.json` of the output directory. */
  report: string;
  /** The directory with `test_output.txt`, `patch.diff` and (eval) `eval.log`; `null` when unknown. */
  logDir: string | null;
}

/** Cuts a patch to {@link maxPatchChars}, saying so at its end. */
export function cutPatch(patch: string): string {
  return patch.length <= maxPatchChars
    ? patch
    : `${patch.slice(0, patch.lastIndexOf('\n', maxPatchChars) + 1)}… (${patch.length - maxPatchChars} more characters not shown)\n`;
}

/**
 * Reads one instance.
 * @param reportDir the directory the HTML file goes to (for relative links)
 */
export async function readGradedInstance(
  result: InstanceResult,
  files: GradedInstanceFiles,
  reportDir: string,
): Promise<ViewInstance> {
  const problems: string[] = [];
  const reportText = await readTextFile(files.report, problems);
  let report: SweBenchInstanceReport[string] | undefined;
  try {
    report =
      reportText === null
        ? undefined
        : (JSON.parse(reportText) as SweBenchInstanceReport)[result.instance_id];
  } catch (error) {
    problems.push(`${files.report} is not JSON (${(error as Error).message}): its tests are not shown`);
  }
  const missing = new Set(result.missing_tests);
  const tests: ViewTest[] = [];
  const failed = { FAIL_TO_PASS: [] as string[], PASS_TO_PASS: [] as string[] };
  for (const list of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const) {
    const status = report?.tests_status?.[list];
    for (const name of status?.success ?? []) tests.push({ list, name, status: 'passed', line: null });
    for (const name of status?.failure ?? []) {
      failed[list].push(name);
      tests.push({ list, name, status: missing.has(name) ? 'missing' : 'failed', line: null });
    }
  }
  const logDir = files.logDir;
  const tooBig = logDir !== null && logSize(join(logDir, 'test_output.txt')) > maxLogReadBytes;
  if (tooBig && logDir !== null) {
    problems.push(
      `${join(logDir, 'test_output.txt')} is over the ${maxLogReadBytes / 1024 / 1024} MiB a report reads: open the file itself`,
    );
  }
  const [logText, patch, evalLog] =
    logDir === null
      ? [null, null, null]
      : await Promise.all([
          tooBig ? null : readTextFile(join(logDir, 'test_output.txt'), problems),
          readTextFile(join(logDir, 'patch.diff'), problems),
          readTextFile(join(logDir, 'eval.log'), problems),
        ]);
  let log: ViewLog | null = null;
  if (logText !== null && logDir !== null) {
    const lines = stripAnsi(logText).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const deciding = findDecidingLines(
      lines,
      tests.filter((test) => test.status !== 'missing').map((test) => test.name),
    );
    for (const test of tests)
      test.line = test.status === 'missing' ? null : (deciding.get(test.name) ?? null);
    const decided = tests.flatMap((test) => (test.line === null ? [] : [test.line]));
    log = windowLog(
      lines,
      Buffer.byteLength(logText),
      decided,
      relativeHref(reportDir, join(logDir, 'test_output.txt')),
    );
  }
  const official = result.official;
  return {
    id: result.instance_id,
    tags: [],
    repo: repoOfId(result.instance_id),
    status: result.status,
    errorKind: result.error_kind ?? null,
    infraError: result.infra_error,
    reason: verdictReason(result, failed),
    f2p: result.f2p,
    p2p: result.p2p,
    tests,
    patchMethod: result.patch_method ?? report?.patch_applied_with ?? null,
    patchSteps: evalLog === null ? [] : readPatchSteps(evalLog),
    patch: patch === null ? null : cutPatch(patch),
    log,
    official:
      official === undefined
        ? null
        : {
            resolved: official.resolved,
            agrees: official.agrees,
            reasons: official.reasons,
            testDifferences: official.tests?.differences ?? [],
          },
    notes: [
      ...problems,
      ...(result.grade_notes ?? []),
      ...result.prefix_matches.map(
        (match) =>
          `${match.list} test ${match.test} matches logged ids only by prefix (counted as failed): ${match.logged.join(', ')}`,
      ),
      ...(result.id_collisions ?? []).map(
        (c) => `${c.from.length} logged ids collapsed into ${c.official}: ${c.from.join(', ')}`,
      ),
      ...(result.skipped_fail_to_pass ?? []).map(
        (name) => `FAIL_TO_PASS test skipped (a failure for sandkit): ${name}`,
      ),
    ],
    durationMs: result.duration_ms,
    exitStatus: null,
    costUsd: null,
    tokens: null,
    steps: null,
    trajectory: null,
  };
}

/** The size of a file in bytes, 0 when it cannot be stat'ed (then reading it says why). */
function logSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
