/**
 * The (log, repository) pairs that sandkit's status maps are compared on with the official
 * SWE-bench log parsers (SWE-bench v4.1.0, 726c5461e2ef52d83cf1ea2107870a8bb3328d57,
 * `swebench/harness/log_parsers/*.py` through `grading.py`'s `get_logs_eval`).
 *
 * - Logs: every REAL runner fixture of `@sandkit/tools` (`packages/tools/test/fixtures/runners`,
 *   the rows of its fault-injection table minus the hand-built `*-hand.txt`, plus `gtest-plain.txt`
 *   and `tap-node-subtests.txt`) and of `../fixtures/official-parsers/logs`, wrapped in the
 *   official start/end markers; and every
 *   `test_output.txt` of the grade fixtures (`../fixtures/grade`, already in the official layout).
 * - Repositories: for each log, every repository of the spec table whose sandkit parser reads that
 *   runner's output, at one version (per parser: immutable-js and jekyll change parser by version).
 *
 * `scripts/official-grading/run.sh` runs the official parsers on these cases and writes
 * `../fixtures/official-parsers/statuses.json`; `official-parser-parity.test.ts` compares.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { faultInjectionTable } from '../../../../tools/test/parsers/fault-injection-table.js';
import { gradeLog } from '../../../src/eval/grade/grade-log.js';
import type { TestStatus } from '../../../src/eval/instance/grade.js';
import { testPlan } from '../../../src/eval/instance/test-plan.js';
import { sweBenchInstanceSchema } from '../../../src/eval/load/swe-bench-instance.js';
import type { RepoSpec } from '../../../src/eval/specs/repo-spec.js';
import { specFor } from '../../../src/eval/specs/spec-for.js';
import { allRepoSpecs } from '../../../src/eval/specs/spec-table.js';
import { repoRoot } from '../eval-test-helpers.js';

/** One log graded as one repository. */
export interface ParserParityCase {
  /** The log's path from the repository root. */
  log: string;
  /** The log as both graders read it (official layout). */
  text: string;
  repo: string;
  version: string;
  instance_id: string;
  /** sandkit's parser for the repository at this version. */
  parser: string;
  /** The official parser of the repository. */
  officialParser: string;
  /** The repository is graded FAIL_ONLY. */
  failOnly: boolean;
}

const runners = 'packages/tools/test/fixtures/runners';
/** Real runner output kept here for formats the runner fixtures lack (see its generate.sh). */
const ownLogs = 'packages/runtime/test/eval/fixtures/official-parsers/logs';
const ownLogParsers: Record<string, string> = { 'minitest-shoulda-names.txt': 'minitest' };
const gradeLogs = 'packages/runtime/test/eval/fixtures/grade/logs/run_evaluation';

/** Real runner fixtures and the sandkit parser of each. */
function runnerFixtures(): Array<{ fixture: string; framework: string }> {
  const rows = faultInjectionTable
    .filter((row) => !row.fixture.endsWith('-hand.txt'))
    .map((row) => ({ fixture: row.fixture, framework: row.framework as string }));
  return [
    ...rows,
    { fixture: 'gtest-plain.txt', framework: 'ctest' },
    { fixture: 'tap-node-subtests.txt', framework: 'tap' },
  ];
}

/** `test_output.txt` files under the grade fixtures, from the repository root. */
function gradeFixtureLogs(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'test_output.txt') found.push(path);
    }
  };
  walk(gradeLogs);
  return found.sort();
}

/** One table row per (repository, sandkit parser): the first version with that parser. */
function repoRows(): Array<RepoSpec & { parser: string; officialParser: string }> {
  const rows = new Map<string, RepoSpec & { parser: string; officialParser: string }>();
  for (const row of allRepoSpecs()) {
    if (row.parser === null || row.officialParser === null) continue;
    const key = `${row.repo}\t${row.parser}`;
    if (!rows.has(key)) rows.set(key, { ...row, parser: row.parser, officialParser: row.officialParser });
  }
  return [...rows.values()];
}

/** The official layout around a runner's output (the markers `get_logs_eval` splits on). */
export function wrapInMarkers(output: string): string {
  return `+ : '>>>>> Start Test Output'\n${output}${output.endsWith('\n') ? '' : '\n'}+ : '>>>>> End Test Output'\n`;
}

/** Every case (see the module doc), in a stable order. */
export function parserParityCases(): ParserParityCase[] {
  const logs = [
    ...runnerFixtures().map(({ fixture, framework }) => ({
      log: `${runners}/${fixture}`,
      text: wrapInMarkers(readFileSync(join(repoRoot, runners, fixture), 'utf8')),
      framework,
    })),
    ...Object.entries(ownLogParsers).map(([fixture, framework]) => ({
      log: `${ownLogs}/${fixture}`,
      text: wrapInMarkers(readFileSync(join(repoRoot, ownLogs, fixture), 'utf8')),
      framework,
    })),
    ...gradeFixtureLogs().map((log) => ({
      log,
      text: readFileSync(join(repoRoot, log), 'utf8'),
      framework: frameworkOfGradeLog(log),
    })),
  ];
  const rows = repoRows();
  return logs.flatMap(({ log, text, framework }) =>
    rows
      .filter((row) => row.parser === framework)
      .map((row) => ({
        log,
        text,
        repo: row.repo,
        version: row.version,
        instance_id: `${row.repo.replace('/', '__')}-${row.perInstance ? row.version : '90000'}`,
        parser: row.parser,
        officialParser: row.officialParser,
        failOnly: row.failOnly,
      })),
  );
}

/** The sandkit parser of a grade fixture log: its instance's row (`dataset*.jsonl` beside the logs). */
function frameworkOfGradeLog(log: string): string {
  const id = log.split('/').at(-2) as string;
  const dir = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
  for (const name of readdirSync(dir).filter((file) => /^dataset.*\.jsonl$/.test(file)))
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { instance_id: string; repo: string; version: string };
      if (row.instance_id === id) return specFor(row.repo, row.version)?.parser ?? 'unknown';
    }
  return 'unknown';
}

/** sandkit's status map for a case: `sandkit grade`'s path (`testPlan` → `gradeLog`), official ids. */
export function sandkitStatuses(
  entry: Pick<ParserParityCase, 'text' | 'repo' | 'version' | 'instance_id'>,
): Map<string, TestStatus> {
  const instance = sweBenchInstanceSchema.parse({
    instance_id: entry.instance_id,
    repo: entry.repo,
    version: entry.version,
    base_commit: '0123456789abcdef0123456789abcdef01234567',
    patch: '',
    test_patch: 'diff --git a/t b/t\n',
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
  });
  const plan = testPlan(instance);
  return gradeLog(entry.text, { ...plan, FAIL_TO_PASS: [], PASS_TO_PASS: [] }).statuses;
}
