/**
 * `jest --json` output, raw (the JSON object on one line, anything around it ignored) or piped
 * through SWE-bench's `JEST_JSON_JQ_TRANSFORM` (v4.1.0 constants/javascript.py: one
 * `[PASSED] ancestors > title` line per assertion; official `parse_log_jest_json`). Names are
 * the ancestor titles and the title joined with ` > `, as that transform prints them.
 *
 * Raw JSON (jest `--json`, and vitest `--reporter=json`, which writes the same shape): counts from
 * `numPassedTests`, `numFailedTests` (plus `numRuntimeErrorTestSuites`), `numPendingTests` +
 * `numTodoTests`, `numTotalTests`. A suite that failed with no failed test of its own (it did not
 * load, or a `beforeAll` hook failed) is an `error` named by its file, its `message` as the
 * failure, and counts in `failed` even where the runner's test counts leave it out (vitest). The
 * jq lines carry no counts.
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

const jqLine = /^\[(PASSED|FAILED|PENDING|SKIPPED|TODO|DISABLED|FOCUSED)\] (.+)$/;

interface JestAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  failureMessages?: unknown;
}

/** Parses jest --json output (raw or jq-transformed). Pure; never throws. */
export function parseJestJson(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  for (let index = 0; index < lines.length; index++) {
    const trimmed = (lines[index] as string).trim();
    if (trimmed.startsWith('{') && trimmed.includes('"testResults"')) {
      readReport(trimmed, collector);
      continue;
    }
    const match = jqLine.exec(trimmed);
    if (match && !isCutCopy(lines, index))
      collector.add(match[2] as string, statusOf((match[1] as string).toLowerCase()));
  }
  return collector.finish('jest-json');
}

function statusOf(status: string): TestStatus {
  if (status === 'passed' || status === 'focused') return 'passed';
  if (status === 'failed') return 'failed';
  return 'skipped';
}

function readReport(text: string, collector: TestCollector): void {
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return; // a cut line: nothing can be trusted from it
  }
  const results = Array.isArray(report.testResults)
    ? (report.testResults as Array<Record<string, unknown>>)
    : [];
  let suiteErrors = 0;
  let failedAssertions = 0;
  for (const suite of results) {
    const assertions = Array.isArray(suite.assertionResults)
      ? (suite.assertionResults as JestAssertion[])
      : [];
    for (const assertion of assertions) {
      const ancestors = Array.isArray(assertion.ancestorTitles) ? assertion.ancestorTitles.map(String) : [];
      const name = [...ancestors, String(assertion.title ?? '')].join(' > ');
      const status = String(assertion.status ?? '');
      collector.add(name, statusOf(status), status === 'todo' ? { outcome: 'todo' } : undefined);
      if (status === 'failed') {
        failedAssertions += 1;
        const messages = Array.isArray(assertion.failureMessages) ? assertion.failureMessages : [];
        collector.fail(name, firstLine(String(messages[0] ?? '')));
      }
    }
    // A suite that failed with no failed test of its own: it did not load, or a hook (beforeAll)
    // failed and its tests were skipped (vitest's JSON reports it so). It is one error.
    if (suite.status === 'failed' && !assertions.some((assertion) => assertion.status === 'failed')) {
      suiteErrors += 1;
      const name = String(suite.name ?? suite.testFilePath ?? 'test suite');
      collector.add(name, 'error');
      const reason = firstLine(String(suite.message ?? suite.failureMessage ?? ''));
      collector.fail(
        name,
        reason !== ''
          ? reason
          : 'the suite failed with no failed test of its own (a hook such as beforeAll failed, or the file did not run); the runner printed no message in its JSON',
      );
    }
  }
  const number = (key: string): number | undefined =>
    typeof report[key] === 'number' ? (report[key] as number) : undefined;
  const passed = number('numPassedTests');
  const failed = number('numFailedTests');
  if (passed === undefined || failed === undefined) return;
  collector.counts = {
    passed,
    // jest counts a suite that failed to load in numRuntimeErrorTestSuites; vitest has no such field
    failed: Math.max(failed + (number('numRuntimeErrorTestSuites') ?? 0), failedAssertions + suiteErrors),
    skipped: (number('numPendingTests') ?? 0) + (number('numTodoTests') ?? 0),
    ...(number('numTotalTests') !== undefined ? { total: number('numTotalTests') } : {}),
  };
}

function firstLine(message: string): string {
  return (
    message
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && !line.startsWith('●')) ?? ''
  );
}
