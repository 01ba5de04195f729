/**
 * Shapes shared by the test-runner output parsers.
 * @module
 */

/** Runners whose output {@link parseTestOutput} understands. */
export const testFrameworks = [
  'jest',
  'vitest',
  'pytest',
  'cargo',
  'go',
  'node',
  'mocha',
  'unittest',
  'django',
  'sympy',
  'tap',
  'jest-json',
  'karma',
  'jasmine',
  'maven',
  'gradle',
  'ant-junit',
  'junit-xml',
  'junit5',
  'phpunit',
  'rspec',
  'rspec-json',
  'minitest',
  'test-unit',
  'cucumber',
  'ctest',
  'catch2',
  'doctest-xml',
  'redis-tcl',
  'automake',
  'micropython',
] as const;

/** One of {@link testFrameworks}. */
export type TestFramework = (typeof testFrameworks)[number];

/** Status of one test. `error` is a test that could not run (pytest/unittest ERROR, go build failure). */
export type TestStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** One test as the runner printed it. */
export interface ParsedTest {
  /** The runner's own id, kept whole (pytest node id with its parameters, `test_x (mod.Class)`, …). */
  name: string;
  status: TestStatus;
  /**
   * Finer outcome when the runner reports one: `xfailed` (expected failure, status `skipped`),
   * `xpassed` (unexpected pass, status `passed`), `todo` (status `skipped`), `flaky` (failed, then
   * passed when the runner retried it: surefire `Flakes:`, pytest-rerunfailures, nextest `FLAKY`;
   * status `passed`).
   */
  outcome?: 'xfailed' | 'xpassed' | 'todo' | 'flaky';
  /**
   * How many times the runner ran the test, the last run included, when it retried it and printed
   * each try (pytest-rerunfailures' `RERUN` lines under `-v`, surefire's `Run N:` lines and its
   * reports' `<rerunFailure>`/`<flakyFailure>`, nextest's `TRY n` and `FLAKY n/m`). Absent for a
   * test run once, or when the runner did not say. A retried test is still one test, with the
   * status of its last run, in the list and in the counts.
   */
  tries?: number;
  /** unittest/Django: the docstring line printed in place of the name (SWE-bench keys on it too). */
  description?: string;
}

/** A failed or errored test with the first line(s) of its error. */
export interface ParsedFailure {
  name: string;
  message: string;
}

/**
 * What {@link parseTestOutput} found. Counts are present only when the runner's own summary (or,
 * for `go test -v`/`-json` and verbose sympy, a complete per-test listing) was matched: they are
 * never guessed. `skipped` includes todo and expected failures; `failed` includes errors.
 */
export interface ParsedTestOutput {
  /** The parser used (given, or detected); `unknown` when no runner's output was recognised. */
  framework: TestFramework | 'unknown';
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
  /** Every test whose result was printed, each name once (the worst status wins). */
  tests: ParsedTest[];
  failures: ParsedFailure[];
}

/** Summary counts, all optional. */
export interface TestCounts {
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
}
