/**
 * Gradle test events on a plain console (`gradle test --console=plain` with `testLogging {
 * events "passed", "skipped", "failed" }`, as SWE-bench v4.1.0's lucene and rxjava pre-install
 * scripts configure it; official `parse_log_gradle_custom`): `com.a.MathTest > adds() PASSED`,
 * `… FAILED` (the indented exception line after it is the message), `… SKIPPED`. Names are the
 * text before the status, as the official names them. Counts from `N tests completed, N failed,
 * N skipped`, or the SWE-bench scripts' `Results: FAILURE (N tests, N passed, N failed, N
 * skipped)`. A task that failed outside tests (`> Task :compileTestJava FAILED`; Gradle 4.4.1
 * prints `:compileTestJava FAILED`, or the task name, its output, then ` FAILED` alone, as for a
 * compile error) is an `error` named by the task, its message the `* What went wrong:` line
 * after it (`Execution failed for task ':compileTestJava'.`, which also names the task when its
 * own line did not).
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const eventWords = ['PASSED', 'FAILED', 'SKIPPED'] as const;
const task = /^(?:> Task )?(:\S*) FAILED$/;
const executionFailed = /^Execution failed for task '(:[^']*)'\.$/;
const completed = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$/;
const results = /Results: \w+ \((\d+) tests?, (\d+) passed, (\d+) failed, (\d+) skipped\)/;

/** Parses Gradle test output. Pure; never throws. */
export function parseGradle(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const failedTasks: string[] = [];
  let wentWrong = '';
  let sawSkipped = false;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const failedTask = task.exec(line);
    if (failedTask) {
      failedTasks.push(failedTask[1] as string);
      continue;
    }
    if (line === '* What went wrong:') {
      wentWrong = (lines[index + 1] as string | undefined)?.trim() ?? '';
      continue;
    }
    const done = completed.exec(line);
    if (done) {
      const total = Number(done[1]);
      const failed = Number(done[2] ?? 0);
      const skipped = Number(done[3] ?? 0);
      collector.counts = { total, failed, skipped, passed: Math.max(0, total - failed - skipped) };
      continue;
    }
    const custom = results.exec(line);
    if (custom) {
      collector.counts = {
        total: Number(custom[1]),
        passed: Number(custom[2]),
        failed: Number(custom[3]),
        skipped: Number(custom[4]),
      };
      continue;
    }
    const test = testEvent(line);
    if (test && !/^(?:BUILD|FAILURE:)/.test(line)) {
      const name = test[0];
      const status = test[1] === 'PASSED' ? 'passed' : test[1] === 'FAILED' ? 'failed' : 'skipped';
      collector.add(name, status);
      if (status === 'skipped') sawSkipped = true;
      if (status === 'failed') collector.fail(name, (lines[index + 1] as string | undefined)?.trim() ?? '');
    }
  }
  // A count line without its skipped part while skipped tests were printed was cut short.
  if (collector.counts !== undefined && sawSkipped && collector.counts.skipped === 0) {
    const { failed, total } = collector.counts;
    collector.counts = { failed, total };
  }
  const named = executionFailed.exec(wentWrong)?.[1];
  if (named !== undefined && !failedTasks.includes(named)) failedTasks.push(named);
  // A task that failed is a failure outside the tests, unless it is the test task failing because tests did.
  for (const name of failedTasks) {
    if (/:test$|:\w*[Tt]est$/.test(name) && /There were failing tests/.test(wentWrong)) continue;
    if (/:test$/.test(name) && collector.counts !== undefined && (collector.counts.failed ?? 0) > 0) continue;
    collector.add(name, 'error');
    collector.fail(name, wentWrong);
  }
  return collector.finish('gradle');
}

/**
 * A test event line, `<name> PASSED|FAILED|SKIPPED` (the name not starting with `>` or a space),
 * as `[name, word]`; read without a backtracking pattern (`^(.*?)\s+WORD$` is quadratic on a long
 * run of spaces in a line).
 */
function testEvent(line: string): [string, (typeof eventWords)[number]] | null {
  const word = eventWords.find((candidate) => line.endsWith(candidate));
  if (word === undefined) return null;
  const head = line.slice(0, line.length - word.length);
  const name = head.trimEnd();
  if (name === head || name === '' || /^[>\s]/.test(name) || /[\r\u2028\u2029]/.test(name)) return null;
  return [name, word];
}
