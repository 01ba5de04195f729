/**
 * The table the parser fault-injection property runs over: one row per real runner fixture
 * (`../fixtures/runners`, made by generate.sh). A new parser joins the property by adding a row
 * for each of its fixtures; see NOTE-11.md.
 * @module
 */
import type { TestFramework } from '../../src/parsers/test-output-types.js';

/** One fixture of one runner. */
export interface FaultInjectionRow {
  /** The parser to use (also what detection must find in the intact fixture). */
  framework: TestFramework;
  /** File name under `test/fixtures/runners/`. */
  fixture: string;
  /** Passed tests the intact log holds: its summary's passes, or the passed tests it lists when it has no summary. */
  passes: number;
  /**
   * Passes printed anywhere in the log when that is more than `passes`: a session nested in
   * captured output (pytester) prints its own, which a damaged log can no longer tell apart.
   */
  passesPrinted?: number;
  /**
   * Matches the runner's own whole summary line when it says something failed (anchored), or
   * `undefined` for a runner that prints none. While such a line survives, failed is never 0.
   */
  saysFailed: RegExp | undefined;
}

/** `pytest -q`: the failing summary without its border. */
const pytestQuietSaysFailed = /^(?:\d+ \w+, )*[1-9]\d* (?:failed|errors?)\b.* in [\d.]+s(?: \([^)]*\))?$/;

/** The runners' own "something failed" summary lines. */
export const says: Partial<Record<TestFramework, RegExp>> = {
  pytest: /^=+ .*\b[1-9]\d* (?:failed|errors?)\b.* in [\d.]+s(?: \([^)]*\))? =+$/,
  unittest: /^FAILED \(.*\b(?:failures|errors)=[1-9]\d*.*\)$/,
  django: /^FAILED \(.*\b(?:failures|errors)=[1-9]\d*.*\)$/,
  // One line, or the first of two when the runner wraps it (it then ends with ", ").
  sympy: /^=*\s*tests finished: .*\b[1-9]\d* (?:failed|exceptions)\b.*(?: in [\d.]+ seconds =*\s*|, ?)$/,
  jest: /^(?:Tests|Test Suites):\s+.*\b[1-9]\d* failed\b.*\d+ total$/,
  vitest: /^\s*(?:Tests|Test Files)\s+.*\b[1-9]\d* failed\b.*\(\d+\)$|^\s*Errors\s+[1-9]\d* errors?$/,
  mocha: /^\s+[1-9]\d* failing$|^ ?Exception during run: \w*Error\b.*$/,
  node: /^(?:#|ℹ) (?:fail|cancelled) [1-9]\d*$/,
  cargo:
    /^test result: FAILED\. \d+ passed; [1-9]\d* failed;.*finished in [\d.]+s$|^error: could not compile `[^`]+`.* due to \d+ previous errors?$|^\s*process didn't exit successfully: .*\(signal: \d+, SIG\w+: [^)]*\)$/,
  go: /^FAIL\t\S+(?:\t[\d.]+s| \[(?:build|setup) failed\])$|^\{"Time":"[^"]+","Action":"fail","Package":"[^"]+","Elapsed":[\d.]+\}$/,
  tap: /^# fail [1-9]\d*$/,
  karma: /^✖ [1-9]\d* tests? failed$|^TOTAL: [1-9]\d* FAILED, \d+ SUCCESS$/,
  jasmine: /^\d+ specs?, [1-9]\d* failures?(?:, \d+ pending specs?)?$/,
  maven:
    /^\[ERROR\] Tests run: \d+, (?:Failures: [1-9]\d*, Errors: \d+|Failures: \d+, Errors: [1-9]\d*), Skipped: \d+(?:, Flakes: \d+)?$/,
  gradle: /^\d+ tests? completed, [1-9]\d* failed(?:, \d+ skipped)?$/,
  'ant-junit':
    /^\s*\[junit\] Tests run: \d+, (?:Failures: [1-9]\d*, Errors: \d+|Failures: \d+, Errors: [1-9]\d*), Skipped: \d+, Time elapsed: [\d.]+ sec$/,
  phpunit: /^Tests: \d+, Assertions: \d+(?:, \w+: \d+)*, (?:Errors|Failures): [1-9]\d*(?:, \w+: \d+)*\.$/,
  rspec:
    /^\d+ examples?, (?:[1-9]\d* failures?(?:, \d+ pending)?(?:, \d+ errors? occurred outside of examples)?|\d+ failures?(?:, \d+ pending)?, [1-9]\d* errors? occurred outside of examples)$/,
  minitest:
    /^\d+ runs, \d+ assertions, (?:[1-9]\d* failures, \d+ errors|\d+ failures, [1-9]\d* errors), \d+ skips$/,
  'test-unit':
    /^\d+ tests, \d+ assertions, (?:[1-9]\d* failures, \d+ errors|\d+ failures, [1-9]\d* errors), \d+ pendings, \d+ omissions, \d+ notifications$/,
  cucumber: /^\d+ scenarios? \(.*\b[1-9]\d* failed\b.*\)$/,
  ctest:
    /^\d+% tests passed, [1-9]\d* tests? failed out of \d+$|^\[ {2}FAILED {2}\] [1-9]\d* tests?, listed below:$/,
  catch2:
    /^test cases:\s+\d+ \|.*\b[1-9]\d* failed\b.*$|^Failed \d+ test cases?, failed \d+ assertions?\.$|^\s*<testsuite\b.*\b(?:errors|failures)="[1-9]\d*".*>$/,
  'junit-xml': /^\s*(?:<\?xml[^>]*\?>)?(?:<testsuites>)?<testsuites?\b[^>]*\b(?:errors|failures)="[1-9]\d*"/,
  junit5: /^\[\s+[1-9]\d* tests failed\s+\]$/,
  'rspec-json':
    /^\{"version":"[^"]*",.*"summary_line":"\d+ examples?, (?:[1-9]\d* failures?.*|\d+ failures?.*[1-9]\d* errors? occurred outside of examples)"\}$/,
  'doctest-xml': /^\s*<OverallResultsTestCases successes="\d+" failures="[1-9]\d*"(?: skipped="\d+")?\/>$/,
  'redis-tcl': /^!!! WARNING The following tests failed:$/,
  automake: /^# (?:FAIL|XPASS|ERROR):\s+[1-9]\d*$/,
  micropython: /^[1-9]\d* tests failed: .*$/,
};

/** Every real fixture of the parsers, with what its intact log holds. */
export const faultInjectionTable: readonly FaultInjectionRow[] = [
  { framework: 'cargo', fixture: 'cargo-build-error.txt', passes: 0, saysFailed: says.cargo },
  { framework: 'cargo', fixture: 'cargo-double-panic.txt', passes: 1, saysFailed: says.cargo },
  { framework: 'cargo', fixture: 'cargo-test.txt', passes: 5, saysFailed: says.cargo },
  { framework: 'django', fixture: 'django-py310-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py311-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py312-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py39-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-verbose.txt', passes: 2, saysFailed: says.django },
  { framework: 'go', fixture: 'go-kinds-json.txt', passes: 3, saysFailed: says.go },
  { framework: 'go', fixture: 'go-kinds-v.txt', passes: 3, saysFailed: says.go },
  { framework: 'go', fixture: 'go-kinds.txt', passes: 0, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test-json.txt', passes: 2, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test-v.txt', passes: 2, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test.txt', passes: 0, saysFailed: says.go },
  { framework: 'jest', fixture: 'jest-default.txt', passes: 3, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-kinds-verbose.txt', passes: 1, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-kinds.txt', passes: 1, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-verbose.txt', passes: 3, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-worker-killed.txt', passes: 2, saysFailed: says.jest },
  { framework: 'mocha', fixture: 'mocha-hook.txt', passes: 1, saysFailed: says.mocha },
  { framework: 'mocha', fixture: 'mocha-load-error.txt', passes: 0, saysFailed: says.mocha },
  { framework: 'mocha', fixture: 'mocha-spec.txt', passes: 2, saysFailed: says.mocha },
  { framework: 'node', fixture: 'node-kinds-spec.txt', passes: 1, saysFailed: says.node },
  { framework: 'node', fixture: 'node-kinds-tap.txt', passes: 1, saysFailed: says.node },
  { framework: 'node', fixture: 'node-test-spec.txt', passes: 3, saysFailed: says.node },
  { framework: 'node', fixture: 'node-test-tap.txt', passes: 3, saysFailed: says.node },
  { framework: 'pytest', fixture: 'pytest-collect-error-rN.txt', passes: 0, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-collect-error.txt', passes: 0, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-color.txt', passes: 5, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-kinds-verbose.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-kinds-xdist.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-quiet.txt', passes: 5, saysFailed: pytestQuietSaysFailed },
  { framework: 'pytest', fixture: 'pytest-quiet-pass.txt', passes: 1, saysFailed: undefined },
  { framework: 'pytest', fixture: 'pytest-ra.txt', passes: 6, passesPrinted: 7, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-classic.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-count.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-progress.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose.txt', passes: 6, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-classic.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-count.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-crash-plain.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-crash.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-plain.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-progress.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'sympy', fixture: 'sympy-default.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-import-error-verbose.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-import-error.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-verbose.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'unittest', fixture: 'unittest-py310-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py311-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py312-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py313-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py38-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py39-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-verbose.txt', passes: 2, saysFailed: says.unittest },
  { framework: 'vitest', fixture: 'vitest-color.txt', passes: 3, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-default.txt', passes: 3, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-kinds-default.txt', passes: 1, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-unhandled.txt', passes: 2, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-kinds-verbose.txt', passes: 1, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-verbose.txt', passes: 3, saysFailed: says.vitest },
  // issue 9 item 5: the new runners (real runner output unless the name ends in -hand, see generate.sh)
  { framework: 'tap', fixture: 'tap-mocha.txt', passes: 1, saysFailed: says.tap },
  { framework: 'jest-json', fixture: 'jest-json-jq.txt', passes: 2, saysFailed: undefined },
  { framework: 'jest-json', fixture: 'jest-kinds-json.txt', passes: 1, saysFailed: undefined },
  { framework: 'jest-json', fixture: 'vitest-kinds-json.txt', passes: 1, saysFailed: undefined },
  { framework: 'phpunit', fixture: 'phpunit-testdox.txt', passes: 2, saysFailed: says.phpunit },
  { framework: 'phpunit', fixture: 'phpunit-default.txt', passes: 2, saysFailed: says.phpunit },
  { framework: 'phpunit', fixture: 'phpunit-parse-error.txt', passes: 0, saysFailed: undefined },
  { framework: 'rspec', fixture: 'rspec-progress.txt', passes: 1, saysFailed: says.rspec },
  { framework: 'rspec', fixture: 'rspec-documentation.txt', passes: 1, saysFailed: says.rspec },
  { framework: 'rspec', fixture: 'rspec-load-error.txt', passes: 0, saysFailed: says.rspec },
  { framework: 'rspec', fixture: 'rspec-fpm-jq.txt', passes: 1, saysFailed: undefined },
  { framework: 'rspec', fixture: 'rspec-fastlane-jq.txt', passes: 1, saysFailed: undefined },
  { framework: 'minitest', fixture: 'minitest-verbose.txt', passes: 1, saysFailed: says.minitest },
  { framework: 'test-unit', fixture: 'test-unit-verbose.txt', passes: 2, saysFailed: says['test-unit'] },
  { framework: 'cucumber', fixture: 'cucumber-progress.txt', passes: 1, saysFailed: says.cucumber },
  { framework: 'catch2', fixture: 'catch2-console.txt', passes: 1, saysFailed: says.catch2 },
  { framework: 'catch2', fixture: 'catch2-compact.txt', passes: 0, saysFailed: says.catch2 },
  // Catch2's -r junit is JUnit XML: detected by that shape (issue 26).
  { framework: 'junit-xml', fixture: 'catch2-junit.txt', passes: 2, saysFailed: says['junit-xml'] },
  ...(['pytest', 'phpunit', 'catch2', 'ctest', 'node', 'junit5', 'surefire', 'rspec', 'prove'] as const).map(
    (runner): FaultInjectionRow => ({
      framework: 'junit-xml',
      fixture: `junit-xml-${runner}.txt`,
      // prove's document contradicts itself (its errors="1" is no testcase, its skipped test a
      // plain testcase), so none of its passes are given; damaged, never more than it lists
      passes: runner === 'ctest' ? 1 : runner === 'prove' ? 0 : 2,
      ...(runner === 'prove' ? { passesPrinted: 3 } : {}),
      // ctest writes each attribute of <testsuite> on its own line
      saysFailed: runner === 'ctest' ? undefined : says['junit-xml'],
    }),
  ),
  // Retried tests (issue 26): each once, so a damaged log never gives more passes than tests.
  {
    framework: 'junit-xml',
    fixture: 'junit-xml-surefire-3-rerun.txt',
    passes: 4,
    saysFailed: says['junit-xml'],
  },
  { framework: 'maven', fixture: 'maven-surefire-3-rerun.txt', passes: 4, saysFailed: says.maven },
  { framework: 'vitest', fixture: 'vitest-retry-verbose.txt', passes: 2, saysFailed: says.vitest },
  { framework: 'jest', fixture: 'jest-retry-verbose.txt', passes: 2, saysFailed: says.jest },
  { framework: 'pytest', fixture: 'pytest-rerun-verbose.txt', passes: 2, saysFailed: says.pytest },
  // Runs that fail before any test (issue 26): the passing file beside the broken one.
  { framework: 'junit-xml', fixture: 'junit-xml-ctest-not-run-kinds.txt', passes: 1, saysFailed: undefined },
  { framework: 'junit5', fixture: 'junit5-before-all-tree.txt', passes: 1, saysFailed: undefined },
  { framework: 'junit5', fixture: 'junit5-tree.txt', passes: 2, saysFailed: says.junit5 },
  { framework: 'junit5', fixture: 'junit5-flat.txt', passes: 2, saysFailed: says.junit5 },
  { framework: 'rspec-json', fixture: 'rspec-json.txt', passes: 2, saysFailed: says['rspec-json'] },
  {
    framework: 'rspec-json',
    fixture: 'rspec-json-load-error.txt',
    passes: 0,
    saysFailed: says['rspec-json'],
  },
  // CTest counts its own tests; the googletest tests inside are listed too
  {
    framework: 'ctest',
    fixture: 'ctest-gtest-verbose.txt',
    passes: 1,
    passesPrinted: 2,
    saysFailed: says.ctest,
  },
  { framework: 'junit5', fixture: 'junit5-tree.txt', passes: 2, saysFailed: says.junit5 },
  { framework: 'junit5', fixture: 'junit5-flat.txt', passes: 2, saysFailed: says.junit5 },
  { framework: 'rspec-json', fixture: 'rspec-json.txt', passes: 2, saysFailed: says['rspec-json'] },
  {
    framework: 'rspec-json',
    fixture: 'rspec-json-load-error.txt',
    passes: 0,
    saysFailed: says['rspec-json'],
  },
  // CTest counts its own tests; the googletest tests inside are listed too
  { framework: 'ctest', fixture: 'ctest-default.txt', passes: 1, passesPrinted: 2, saysFailed: says.ctest },
  // doctest counts test cases; the passing subcase is listed
  {
    framework: 'doctest-xml',
    fixture: 'doctest-xml.txt',
    passes: 0,
    passesPrinted: 1,
    saysFailed: says['doctest-xml'],
  },
  // jasmine names no passing spec and, with a suite error, its summary cannot say how many passed (0
  // given); a copy that lost its `Suite error:` line derives them, never more than the 2 that did.
  {
    framework: 'jasmine',
    fixture: 'jasmine-default.txt',
    passes: 0,
    passesPrinted: 2,
    saysFailed: says.jasmine,
  },
  { framework: 'karma', fixture: 'karma-mocha.txt', passes: 3, saysFailed: says.karma },
  { framework: 'karma', fixture: 'karma-progress.txt', passes: 3, saysFailed: says.karma },
  { framework: 'karma', fixture: 'karma-progress-jasmine.txt', passes: 1, saysFailed: says.karma },
  { framework: 'karma', fixture: 'karma-load-error.txt', passes: 0, saysFailed: undefined },
  { framework: 'maven', fixture: 'maven-surefire.txt', passes: 1, saysFailed: says.maven },
  // surefire counts tests; the -Dtest run and the clean class are listed
  { framework: 'maven', fixture: 'maven-dtest.txt', passes: 1, passesPrinted: 2, saysFailed: says.maven },
  { framework: 'maven', fixture: 'maven-compile-error.txt', passes: 0, saysFailed: undefined },
  { framework: 'gradle', fixture: 'gradle-plain.txt', passes: 2, saysFailed: says.gradle },
  { framework: 'gradle', fixture: 'gradle-compile-error.txt', passes: 0, saysFailed: undefined },
  { framework: 'gradle', fixture: 'gradle-tests-pass.txt', passes: 2, saysFailed: undefined },
  { framework: 'gradle', fixture: 'gradle-compile-error-hand.txt', passes: 0, saysFailed: undefined },
  { framework: 'ant-junit', fixture: 'ant-junit-lombok.txt', passes: 2, saysFailed: says['ant-junit'] },
  { framework: 'ant-junit', fixture: 'ant-junit-brief.txt', passes: 2, saysFailed: says['ant-junit'] },
  { framework: 'ant-junit', fixture: 'ant-junit-plain.txt', passes: 2, saysFailed: says['ant-junit'] },
  { framework: 'ant-junit', fixture: 'ant-junit-compile-error.txt', passes: 0, saysFailed: undefined },
  { framework: 'redis-tcl', fixture: 'redis-tcl-durable.txt', passes: 2, saysFailed: says['redis-tcl'] },
  { framework: 'redis-tcl', fixture: 'redis-tcl-exception.txt', passes: 1, saysFailed: undefined },
  { framework: 'redis-tcl', fixture: 'redis-tcl-only.txt', passes: 10, saysFailed: undefined },
  { framework: 'automake', fixture: 'automake-check.txt', passes: 1, saysFailed: says.automake },
  { framework: 'automake', fixture: 'automake-tap.txt', passes: 1, saysFailed: says.automake },
  {
    framework: 'micropython',
    fixture: 'micropython-run-tests.txt',
    passes: 14,
    saysFailed: says.micropython,
  },
  {
    framework: 'micropython',
    fixture: 'micropython-run-tests-v1.22.txt',
    passes: 13,
    saysFailed: says.micropython,
  },
];
