/**
 * jest output (it writes to stderr). Counts from `Tests: 2 failed, 1 skipped, 1 todo, 3 passed,
 * 7 total`, each word read on its own. Per-test lines from `--verbose` (`✓`, `✕`, `○ skipped`,
 * `✎ todo`) are named like jest's own failure headers: `describe › nested › test`.
 *
 * A suite that fails to run (`● Test suite failed to run` under `FAIL path`: a module that cannot
 * be found, a syntax error, a worker killed by a signal or out of memory) is an `error` named by
 * its file, with the reason as its message, and counts as failed: jest's `Tests:` line leaves it
 * out, so each such suite is added to `failed` and `total` (when no test failed, jest's own `Test
 * Suites: N failed` is the number of them). A failing `beforeAll` hook fails the
 * tests under it, which jest lists as failed. A test `jest.retryTimes(n, { logErrorsBeforeRetry:
 * true })` retried is one test whose `tries` are its `RETRY n` lines plus its last run (passed:
 * outcome `flaky`); without `logErrorsBeforeRetry` jest prints no try, so none is given. A run
 * that found no test file (`No tests found, exiting with code 1`) is an `error` named by its
 * `Pattern:`.
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';
import { nextNonEmpty } from './vitest-parser.js';

const summary = /^Tests:\s+(.*\d+ total)\s*$/;
const suitesSummary = /^Test Suites:\s+(.*\d+ total)\s*$/;
const fileLine = /^(PASS|FAIL) \S/;
const testLine = /^(\s+)(✓|✕|√|×|○ skipped|✎ todo) (.+?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const failureHeader = /^\s+● (.+)$/;
/** `jest.retryTimes(n, { logErrorsBeforeRetry: true })`: the test's full name, then a `RETRY n` per failed try. */
const retryErrors = /^\s*LOGGING RETRY ERRORS\s+(.+?)\s*$/;
const noTests = /^No tests found, exiting with code 1$/;
const retryLine = /^\s*RETRY (\d+)\s*$/;

/** Parses jest output. Pure; never throws. */
export function parseJest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let groups: Array<{ indent: number; name: string }> = [];
  let file: string | undefined;
  const brokenSuites = new Set<string>();
  let suitesFailed = 0;
  /** Failed tries per test full name (describe and test names joined with spaces, as jest prints it). */
  const retries = new Map<string, number>();
  let retrying: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const retried = retryErrors.exec(line);
    if (retried) {
      retrying = retried[1] as string;
      continue;
    }
    const retry = retrying === undefined ? null : retryLine.exec(line);
    if (retry && retrying !== undefined) {
      retries.set(retrying, Math.max(retries.get(retrying) ?? 0, Number(retry[1])));
      continue;
    }
    if (noTests.test(line)) {
      // No test file matched (exit 1; `--passWithNoTests` makes it exit 0): named by jest's pattern.
      const pattern = lines
        .slice(index + 1, index + 12)
        .map((next) => /^Pattern: (.+) - 0 matches$/.exec(next)?.[1])
        .find((value) => value !== undefined);
      const name = pattern ?? 'jest';
      collector.add(name, 'error');
      collector.fail(name, line);
      continue;
    }
    if (fileLine.test(line)) {
      retrying = undefined;
      groups = [];
      file = /^(?:PASS|FAIL) (\S+)/.exec(line)?.[1];
      continue;
    }
    const suites = suitesSummary.exec(line);
    if (suites) {
      suitesFailed = readCountWords(suites[1] as string).get('failed') ?? 0;
      continue;
    }
    const counts = summary.exec(line);
    if (counts) {
      const words = readCountWords(counts[1] as string);
      collector.counts = {
        passed: words.get('passed') ?? 0,
        failed: words.get('failed') ?? 0,
        skipped: (words.get('skipped') ?? 0) + (words.get('todo') ?? 0),
        total: words.get('total') ?? 0,
      };
      continue;
    }
    const header = failureHeader.exec(line);
    if (header) {
      groups = [];
      const name = (header[1] as string).trim();
      if (name === 'Test suite failed to run') {
        const suite = file ?? 'test suite';
        collector.add(suite, 'error');
        collector.fail(suite, nextNonEmpty(lines, index + 1));
        brokenSuites.add(suite);
        continue;
      }
      collector.add(name, 'failed');
      collector.fail(name, nextNonEmpty(lines, index + 1));
      continue;
    }
    const test = testLine.exec(line);
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    groups = groups.filter((group) => group.indent < indent);
    if (test) {
      const name = [...groups.map((group) => group.name), test[3] as string].join(' › ');
      const mark = test[2] as string;
      if (mark === '✓' || mark === '√') collector.add(name, 'passed');
      else if (mark === '✕' || mark === '×') collector.add(name, 'failed');
      else collector.add(name, 'skipped', mark === '✎ todo' ? { outcome: 'todo' } : {});
    } else if (indent >= 2 && line.trim() !== '') {
      groups.push({ indent, name: line.trim() });
    }
  }
  const counts = collector.counts;
  // With no failed test, every failed suite (jest's own `Test Suites:` count) failed outside its tests.
  const outside = counts?.failed === 0 ? Math.max(brokenSuites.size, suitesFailed) : brokenSuites.size;
  if (counts !== undefined && outside > 0) {
    counts.failed = (counts.failed ?? 0) + outside;
    counts.total = (counts.total ?? 0) + outside;
  }
  const parsed = collector.finish('jest');
  if (retries.size === 0) return parsed;
  for (const test of parsed.tests) {
    const failedTries = retries.get(test.name.split(' › ').join(' '));
    if (failedTries === undefined) continue;
    test.tries = failedTries + 1;
    if (test.status === 'passed' && test.outcome === undefined) test.outcome = 'flaky';
  }
  return parsed;
}
