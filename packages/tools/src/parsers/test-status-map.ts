/**
 * `getTestStatusMap`: per-test statuses keyed the way SWE-bench's log parsers
 * (`swebench/harness/log_parsers`) key them, for comparing with FAIL_TO_PASS / PASS_TO_PASS.
 * @module
 */
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

/**
 * Maps each test id to its status, for grading.
 *
 * Ids: pytest node ids whole (`tests/t.py::test_x[a b-1]`); unittest and Django `test_x
 * (module.Class)` exactly as printed (3.11+ prints `test_x (module.Class.test_x)`), plus the
 * docstring line when the runner printed one in place of the name, since SWE-bench keys those
 * tests by it; sympy bare function names; other runners their own full names.
 *
 * Statuses follow SWE-bench's grading: an expected failure (`xfailed`) counts as `passed`, an
 * unexpected pass (`xpassed`) as `failed`. A failure listed without a per-test line (sympy's
 * non-verbose output) is `failed`.
 */
export function getTestStatusMap(parsed: ParsedTestOutput): Record<string, TestStatus> {
  const map: Record<string, TestStatus> = Object.create(null) as Record<string, TestStatus>;
  for (const [name, status] of getTestStatuses(parsed)) map[name] = status;
  return map;
}

/**
 * {@link getTestStatusMap} as a `Map` (test id → status), in the order the ids were first named:
 * the failures, then the tests. The same ids and statuses; cheaper for logs of thousands of tests
 * (no dictionary-mode object) and its iteration order never moves array-index-like ids first.
 */
export function getTestStatuses(parsed: ParsedTestOutput): Map<string, TestStatus> {
  const map = new Map<string, TestStatus>();
  for (const failure of parsed.failures) map.set(failure.name, 'failed');
  for (const test of parsed.tests) {
    const status: TestStatus =
      test.outcome === 'xfailed' ? 'passed' : test.outcome === 'xpassed' ? 'failed' : test.status;
    map.set(test.name, status);
    if (test.description !== undefined && !map.has(test.description)) map.set(test.description, status);
  }
  return map;
}
