import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework, TestStatus } from '../../src/parsers/test-output-types.js';

// Issue 9 item 5: the runners every SWE-bench (v4.1.0) repository uses beyond Python. Fixtures are
// real runner output (generate.sh) except gradle-compile-error-hand.txt, written from a newer
// Gradle's format than the one that runs offline here (its first line says so).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const statuses = (parsed: ParsedTestOutput): Record<string, TestStatus> =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});
const message = (parsed: ParsedTestOutput, name: string): string | undefined =>
  parsed.failures.find((failure) => failure.name === name)?.message;

interface Case {
  fixture: string;
  framework: TestFramework;
  /** Whether detection finds `framework` (false: another runner's parser claims the text first). */
  detected?: boolean;
  counts: ReturnType<typeof counts>;
  tests: Record<string, TestStatus>;
  messages?: Record<string, string | RegExp>;
}

const cases: Case[] = [
  {
    fixture: 'tap-mocha.txt',
    framework: 'tap',
    counts: { passed: 1, failed: 2, skipped: 0, total: 3 },
    tests: {
      'math adds': 'passed',
      'math subtracts badly': 'failed',
      'math skipped one': 'skipped',
      'db "before all" hook for "reads a row"': 'failed',
    },
    messages: {
      'db "before all" hook for "reads a row"': 'cannot connect to db',
      'math subtracts badly': /strictly equal/,
    },
  },
  {
    fixture: 'tap-node-subtests.txt',
    framework: 'tap',
    detected: false, // node's own parser reads node's TAP
    counts: { passed: 2, failed: 1, skipped: 1, total: 5 },
    tests: {
      'outer > passes': 'passed',
      'outer > inner > fails': 'failed',
      'outer > inner > is skipped': 'skipped',
      'todo one': 'skipped',
      'top level': 'passed',
    },
    messages: { 'outer > inner > fails': /strictly equal/ },
  },
  {
    fixture: 'jest-json-jq.txt',
    framework: 'jest-json',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: {
      'math > adds': 'passed',
      'math > nested > fails': 'failed',
      'math > skipped': 'skipped',
      'top level': 'passed',
    },
  },
  {
    fixture: 'jest-kinds-json.txt',
    framework: 'jest-json',
    counts: { passed: 1, failed: 2, skipped: 0, total: 2 },
    tests: { works: 'passed', 'db > reads a row': 'failed', '/tmp/suite/jk/src/broken.test.js': 'error' },
    messages: {
      '/tmp/suite/jk/src/broken.test.js': /Cannot find module '\.\/missing'/,
      'db > reads a row': /cannot connect to db/,
    },
  },
  {
    // vitest --reporter=json writes jest's shape without numRuntimeErrorTestSuites: a file that did
    // not load and a failed beforeAll (its tests skipped) each count as a failure (issue 11)
    fixture: 'vitest-kinds-json.txt',
    framework: 'jest-json',
    counts: { passed: 1, failed: 2, skipped: 1, total: 2 },
    tests: {
      works: 'passed',
      'db > reads a row': 'skipped',
      '/tmp/suite/vk/src/broken.test.js': 'error',
      '/tmp/suite/vk/src/hook.test.js': 'error',
    },
    messages: {
      '/tmp/suite/vk/src/broken.test.js': /Cannot find module '\.\/missing\.js'/,
      '/tmp/suite/vk/src/hook.test.js': /a hook such as beforeAll failed/,
    },
  },
  {
    fixture: 'phpunit-testdox.txt',
    framework: 'phpunit',
    counts: { passed: 2, failed: 4, skipped: 2, total: 8 },
    tests: {
      'Math > Adds numbers': 'passed',
      'Math > Subtracts badly': 'failed',
      'Math > Throws': 'failed',
      'Math > Skipped': 'skipped',
      'Math > Incomplete': 'skipped',
      'Math > Pairs with data set "same"': 'passed',
      'Math > Pairs with data set "different"': 'failed',
      'Setup > Reads a row': 'failed',
    },
    messages: {
      'Setup > Reads a row': 'RuntimeException: cannot connect to db',
      'Math > Subtracts badly': 'Failed asserting that 1 is identical to 3.',
    },
  },
  {
    fixture: 'phpunit-default.txt',
    framework: 'phpunit',
    counts: { passed: 2, failed: 4, skipped: 2, total: 8 },
    tests: {
      'MathTest::testThrows': 'error',
      'SetupTest::testReadsARow': 'error',
      'MathTest::testSubtractsBadly': 'failed',
      'MathTest::testPairs with data set "different" (1, 2)': 'failed',
    },
    messages: { 'MathTest::testThrows': 'RuntimeException: boom' },
  },
  {
    fixture: 'phpunit-parse-error.txt',
    framework: 'phpunit',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { '/tmp/suite/php/tests/BrokenTest.php': 'error' },
    messages: { '/tmp/suite/php/tests/BrokenTest.php': /ParseError: syntax error/ },
  },
  {
    fixture: 'rspec-documentation.txt',
    framework: 'rspec',
    counts: { passed: 1, failed: 3, skipped: 2, total: 6 },
    tests: {
      'math adds': 'passed',
      'math subtracts badly': 'failed',
      'math is pending': 'skipped',
      'math is skipped': 'skipped',
      'math nested raises': 'failed',
      'db reads a row': 'failed',
    },
    messages: {
      'math nested raises': 'RuntimeError: boom',
      'db reads a row': 'RuntimeError: cannot connect to db',
    },
  },
  {
    fixture: 'rspec-progress.txt',
    framework: 'rspec',
    counts: { passed: 1, failed: 3, skipped: 2, total: 6 },
    tests: { 'math subtracts badly': 'failed', 'math nested raises': 'failed', 'db reads a row': 'failed' },
  },
  {
    fixture: 'rspec-load-error.txt',
    framework: 'rspec',
    counts: { passed: 0, failed: 1, skipped: 0, total: 0 },
    tests: { './spec/broken_spec.rb': 'error' },
    messages: { './spec/broken_spec.rb': /^LoadError: cannot load such file/ },
  },
  {
    fixture: 'rspec-fpm-jq.txt',
    framework: 'rspec',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: {
      adds: 'passed',
      'subtracts badly': 'failed',
      'is pending': 'skipped',
      'is skipped': 'skipped',
      raises: 'failed',
      'reads a row': 'failed',
    },
  },
  {
    // the official parser's greedy `(.+) - (passed|failed)` keeps the id in the name: so do we
    fixture: 'rspec-fastlane-jq.txt',
    framework: 'rspec',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { 'adds - ./spec/math_spec.rb[1:1]': 'passed', 'raises - ./spec/math_spec.rb[1:5:1]': 'failed' },
  },
  {
    fixture: 'minitest-verbose.txt',
    framework: 'minitest',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: {
      'TestMath#test_adds': 'passed',
      'TestMath#test_subtracts_badly': 'failed',
      'TestMath#test_raises': 'error',
      'TestMath#test_skipped': 'skipped',
    },
    messages: {
      'TestMath#test_raises': 'RuntimeError: boom',
      'TestMath#test_subtracts_badly': 'Expected: 3',
    },
  },
  {
    fixture: 'test-unit-verbose.txt',
    framework: 'test-unit',
    counts: { passed: 2, failed: 2, skipped: 2, total: 6 },
    tests: {
      test_adds: 'passed',
      test_omitted: 'skipped',
      test_pending: 'skipped',
      test_raises: 'error',
      test_subtracts_badly: 'failed',
      'a described test': 'passed',
    },
    messages: { test_raises: 'RuntimeError: boom', test_subtracts_badly: '<3> expected but was' },
  },
  {
    fixture: 'cucumber-progress.txt',
    framework: 'cucumber',
    counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
    tests: { 'Scenario: adding badly': 'failed' },
    messages: { 'Scenario: adding badly': 'expected 3, got 2 (RuntimeError)' },
  },
  {
    fixture: 'catch2-console.txt',
    framework: 'catch2',
    counts: { passed: 1, failed: 3, skipped: 0, total: 4 },
    tests: { 'subtracts badly': 'failed', throws: 'failed', 'sections/second': 'failed' },
    messages: {
      throws: /unexpected exception with message: boom/,
      'subtracts badly': /REQUIRE\( 2 - 1 == 3 \)/,
    },
  },
  {
    fixture: 'catch2-junit.txt',
    framework: 'catch2',
    detected: false, // JUnit XML's shape: junit-xml (issue 26), which names the tests alike
    counts: { passed: 2, failed: 3, skipped: 0, total: 5 },
    tests: {
      'adds numbers': 'passed',
      'subtracts badly': 'failed',
      throws: 'error',
      'sections/first': 'passed',
      'sections/second': 'failed',
    },
    messages: { throws: 'boom' },
  },
  {
    fixture: 'catch2-compact.txt',
    framework: 'catch2',
    counts: { passed: undefined, failed: 3, skipped: undefined, total: undefined },
    tests: {},
    messages: { 'catch_main.cpp:6': "unexpected exception with message: 'boom'" },
  },
  {
    fixture: 'ctest-gtest-verbose.txt',
    framework: 'ctest',
    counts: { passed: 1, failed: 3, skipped: 0, total: 4 },
    tests: {
      'Math.Adds': 'passed',
      'Math.SubtractsBadly': 'failed',
      'Math.Throws': 'failed',
      'Math.Skipped': 'skipped',
      'gtest-suite': 'failed',
      'ok-shell': 'passed',
      crashes: 'error',
      'missing-binary': 'error',
    },
    messages: {
      'Math.Throws': /C\+\+ exception with description "boom"/,
      crashes: /Subprocess aborted/,
      'missing-binary': 'Unable to find executable: /nonexistent/binary',
    },
  },
  {
    fixture: 'ctest-default.txt',
    framework: 'ctest',
    counts: { passed: 1, failed: 3, skipped: 0, total: 4 },
    tests: { 'Math.Adds': 'passed', 'Math.SubtractsBadly': 'failed', crashes: 'error', 'ok-shell': 'passed' },
  },
  {
    fixture: 'gtest-plain.txt',
    framework: 'ctest',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: {
      'Math.Adds': 'passed',
      'Math.SubtractsBadly': 'failed',
      'Math.Throws': 'failed',
      'Math.Skipped': 'skipped',
    },
    messages: { 'Math.SubtractsBadly': 'Expected equality of these values:' },
  },
  {
    fixture: 'doctest-xml.txt',
    framework: 'doctest-xml',
    counts: { passed: 0, failed: 2, skipped: 0, total: 2 },
    tests: { 'math > adds': 'passed', 'math > subtracts badly': 'failed', 'throws > inside': 'failed' },
    messages: { 'math > subtracts badly': 'CHECK( 2 - 1 == 3 )', 'throws > inside': /^exception: / },
  },
  {
    fixture: 'jasmine-default.txt',
    framework: 'jasmine',
    counts: { passed: undefined, failed: 3, skipped: 1, total: 5 },
    tests: {
      'math subtracts badly': 'failed',
      'math nested throws': 'failed',
      db: 'error',
      'math is skipped': 'skipped',
    },
    messages: { db: 'Error: cannot disconnect', 'math subtracts badly': 'Expected 1 to be 3.' },
  },
  {
    // karma-mocha-reporter prints a skipped test with the failure mark and a ` (skipped)` suffix
    fixture: 'karma-mocha.txt',
    framework: 'karma',
    counts: { passed: 3, failed: 2, skipped: 1, total: 6 },
    tests: {
      'Components > should render a component': 'passed',
      'Components > should keep refs when re-rendering': 'failed',
      'Components > should be skipped': 'skipped',
      'Components > nested > should unmount children': 'passed',
      'Events > should add event listeners': 'passed',
      'Events > should throw': 'failed',
    },
    messages: {
      'Components > should keep refs when re-rendering': "AssertionError: expected null to equal 'div'",
      'Events > should throw': 'Error: boom',
    },
  },
  {
    // TOTAL gives passes and failures, the last `Executed 5 of 6 (2 FAILED) (skipped 1)` the rest
    fixture: 'karma-progress.txt',
    framework: 'karma',
    counts: { passed: 3, failed: 2, skipped: 1, total: 6 },
    tests: { 'Components should keep refs when re-rendering': 'failed', 'Events should throw': 'failed' },
    messages: {
      'Components should keep refs when re-rendering': "AssertionError: expected null to equal 'div'",
      'Events should throw': 'Error: boom',
    },
  },
  {
    // Chart.js' pairing: karma-jasmine, whose failure message comes before `at <Jasmine>`
    fixture: 'karma-progress-jasmine.txt',
    framework: 'karma',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: {
      'Chart.controllers.line should draw all elements': 'failed',
      'Chart.controllers.line nested should throw': 'failed',
    },
    messages: {
      'Chart.controllers.line should draw all elements': 'Expected 3 to be 4.',
      'Chart.controllers.line nested should throw': 'Error: boom',
    },
  },
  {
    fixture: 'karma-load-error.txt',
    framework: 'karma',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { 'Chrome Headless 156.0.0.0 (Linux 0.0.0) ERROR': 'error' },
    messages: {
      'Chrome Headless 156.0.0.0 (Linux 0.0.0) ERROR': 'Uncaught Error: the bundle failed to load',
    },
  },
  {
    fixture: 'maven-surefire.txt',
    framework: 'maven',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: { 'com.example.MathTest.subtractsBadly': 'failed', 'com.example.MathTest.throwsOne': 'error' },
    messages: {
      'com.example.MathTest.subtractsBadly':
        'org.opentest4j.AssertionFailedError: expected: <3> but was: <1>',
      'com.example.MathTest.throwsOne': 'java.lang.IllegalStateException: boom',
    },
  },
  {
    // the official parser's per-test runs: `set -x` prints the command with -Dtest, then BUILD SUCCESS/FAILURE
    fixture: 'maven-dtest.txt',
    framework: 'maven',
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
    tests: {
      'com.example.MathTest#adds': 'passed',
      'com.example.MathTest#subtractsBadly': 'failed',
      'com.example.MathTest.subtractsBadly': 'failed',
    },
  },
  {
    fixture: 'maven-compile-error.txt',
    framework: 'maven',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { 'org.apache.maven.plugins:maven-compiler-plugin:testCompile': 'error' },
    messages: {
      'org.apache.maven.plugins:maven-compiler-plugin:testCompile': /Broken\.java: cannot find symbol$/,
    },
  },
  {
    // Debian's Gradle 4.4.1: `:test FAILED` is the task, not a test
    fixture: 'gradle-plain.txt',
    framework: 'gradle',
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      'com.example.MathTest > adds': 'passed',
      'com.example.MathTest > subtractsBadly': 'failed',
      'com.example.MathTest > throwsOne': 'failed',
      'com.example.MathTest > printsALine': 'passed',
      'com.example.MathTest > skipped': 'skipped',
    },
    messages: {
      'com.example.MathTest > subtractsBadly': 'java.lang.AssertionError: expected:<3> but was:<1>',
      'com.example.MathTest > throwsOne': 'java.lang.IllegalStateException: boom',
    },
  },
  {
    // a run that passes prints no `N tests completed` line: the counts are the Results line's
    fixture: 'gradle-tests-pass.txt',
    framework: 'gradle',
    counts: { passed: 2, failed: 0, skipped: 0, total: 2 },
    tests: { 'com.example.MathTest > adds': 'passed', 'com.example.MathTest > printsALine': 'passed' },
  },
  {
    // 4.4.1 prints the task, the compiler's output, then ` FAILED` alone: "What went wrong" names it
    fixture: 'gradle-compile-error.txt',
    framework: 'gradle',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { ':compileTestJava': 'error' },
    messages: { ':compileTestJava': "Execution failed for task ':compileTestJava'." },
  },
  {
    fixture: 'gradle-compile-error-hand.txt',
    framework: 'gradle',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { ':compileTestJava': 'error' },
    messages: { ':compileTestJava': "Execution failed for task ':compileTestJava'." },
  },
  {
    // lombok's SimpleTestFormatter prints nothing for the @Ignore'd test; printsummary's
    // `Running <class>` + `Tests run:` lines give the counts, added over the two classes
    fixture: 'ant-junit-lombok.txt',
    framework: 'ant-junit',
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      'adds(com.example.MathTest)': 'passed',
      'subtractsBadly(com.example.MathTest)': 'failed',
      'throwsOne(com.example.MathTest)': 'error',
      'alwaysFine(com.example.OkTest)': 'passed',
    },
    messages: {
      'subtractsBadly(com.example.MathTest)': 'expected:<3> but was:<1>',
      'throwsOne(com.example.MathTest)': 'class java.lang.IllegalStateException: boom',
    },
  },
  {
    // brief: `Testcase: skipped(com.example.MathTest):SKIPPED: not now`, passes not printed
    fixture: 'ant-junit-brief.txt',
    framework: 'ant-junit',
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      'com.example.MathTest.subtractsBadly': 'failed',
      'com.example.MathTest.throwsOne': 'error',
      'com.example.MathTest.skipped': 'skipped',
    },
    messages: {
      'com.example.MathTest.subtractsBadly': 'expected:<3> but was:<1>',
      'com.example.MathTest.throwsOne': 'boom',
    },
  },
  {
    // plain: `Testcase: adds took 0 sec`, the outcome on the next line when it did not pass
    fixture: 'ant-junit-plain.txt',
    framework: 'ant-junit',
    counts: { passed: 2, failed: 2, skipped: 1, total: 5 },
    tests: {
      'com.example.MathTest.adds': 'passed',
      'com.example.MathTest.subtractsBadly': 'failed',
      'com.example.MathTest.throwsOne': 'error',
      'com.example.MathTest.skipped': 'skipped',
      'com.example.OkTest.alwaysFine': 'passed',
    },
    messages: {
      'com.example.MathTest.subtractsBadly': 'expected:<3> but was:<1>',
      'com.example.MathTest.throwsOne': 'boom',
    },
  },
  {
    fixture: 'ant-junit-compile-error.txt',
    framework: 'ant-junit',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { javac: 'error' },
    messages: { javac: /Broken\.java:1: error: cannot find symbol$/ },
  },
  {
    fixture: 'redis-tcl-durable.txt',
    framework: 'redis-tcl',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: {
      'SET and GET a key': 'passed',
      'INCR a string that is not a number': 'passed',
      'GET returns what was SET - badly': 'failed',
      'assert_equal on a list length': 'failed',
      'Skipped by --skiptest': 'skipped',
      'Denied by its tag: Tag: slow denied': 'skipped',
    },
    messages: {
      'GET returns what was SET - badly': "Expected '2' to equal or match '1'",
      'assert_equal on a list length': /^Expected '3' to be equal to '2'/,
    },
  },
  {
    // the client dies in the unit after a test passed: the error is named by the unit
    fixture: 'redis-tcl-exception.txt',
    framework: 'redis-tcl',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { 'PING before the exception': 'passed', 'unit/sandkit-exception': 'error' },
    messages: { 'unit/sandkit-exception': /^Executing test client: invalid command name "no_such_proc"\./ },
  },
  {
    // SWE-bench's command shape: --only turns every other test of the unit into a [skip]
    fixture: 'redis-tcl-only.txt',
    framework: 'redis-tcl',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: {
      'INCRBYFLOAT against non existing key': 'passed',
      'INCRBYFLOAT does not allow NaN or Infinity': 'passed',
      'INCRBYFLOAT decrement': 'passed',
      'INCR against non existing key': 'skipped',
      'No negative zero': 'skipped',
    },
  },
  {
    fixture: 'automake-check.txt',
    framework: 'automake',
    counts: { passed: 1, failed: 3, skipped: 2, total: 6 },
    tests: {
      'tests/pass.sh': 'passed',
      'tests/fail.sh': 'failed',
      'tests/skip.sh': 'skipped',
      'tests/xfail.sh': 'skipped',
      'tests/xpass.sh': 'failed',
      'tests/error.sh': 'error',
    },
    messages: { 'tests/fail.sh': 'FAIL (see tests/fail.sh.log)' },
  },
  {
    // tap-driver.sh: one line per TAP result, named without its `# SKIP` / `# TODO` directive
    fixture: 'automake-tap.txt',
    framework: 'automake',
    counts: { passed: 1, failed: 2, skipped: 2, total: 5 },
    tests: {
      'tests/math.tap 1 - adds': 'passed',
      'tests/math.tap 2 - subtracts badly': 'failed',
      'tests/math.tap 3 - skipped one': 'skipped',
      'tests/math.tap 4 - known bug': 'skipped',
      'tests/math.tap 5 - fixed bug': 'failed',
    },
    messages: { 'tests/math.tap 2 - subtracts badly': 'FAIL (see test-suite.log)' },
  },
  {
    // `15 tests performed` counts the tests that ran; the skipped one is on top
    fixture: 'micropython-run-tests.txt',
    framework: 'micropython',
    counts: { passed: 14, failed: 1, skipped: 2, total: 17 },
    tests: {
      'basics/string_format.py': 'passed',
      'basics/string_format_sandkit.py': 'failed',
      'basics/string_format_sandkit_skip.py': 'skipped',
      'basics/string_tstring_format1.py': 'skipped',
      'float/string_format_modulo3.py': 'passed',
    },
    messages: { 'basics/string_format_sandkit.py': 'output differs from CPython (see the .exp/.out diff)' },
  },
  {
    // before v1.23 the summary lists failures by bare name (`string_format_sandkit`): the same test
    fixture: 'micropython-run-tests-v1.22.txt',
    framework: 'micropython',
    counts: { passed: 13, failed: 1, skipped: 1, total: 15 },
    tests: {
      'basics/string_format.py': 'passed',
      'basics/string_format_sandkit.py': 'failed',
      'basics/string_format_sandkit_skip.py': 'skipped',
    },
    messages: { 'basics/string_format_sandkit.py': 'output differs from CPython (see the .exp/.out diff)' },
  },
];

describe('new runner parsers (issue 9 item 5)', () => {
  for (const entry of cases) {
    it(`${entry.fixture}: ${entry.framework} names, statuses, counts and messages`, () => {
      const text = fixture(entry.fixture);
      const detected = parseTestOutput(text);
      if (entry.detected !== false) expect(detected.framework).toBe(entry.framework);
      const parsed = parseTestOutput(text, { framework: entry.framework });
      expect(counts(parsed)).toEqual(entry.counts);
      expect(statuses(parsed)).toMatchObject(entry.tests);
      for (const [name, expected] of Object.entries(entry.messages ?? {})) {
        if (typeof expected === 'string') expect(message(parsed, name), name).toBe(expected);
        else expect(message(parsed, name), name).toMatch(expected);
      }
      // every failed or errored test is a failure with its name (never failed = 0 with one listed)
      for (const test of parsed.tests)
        if (test.status === 'failed' || test.status === 'error')
          expect(message(parsed, test.name)).toBeDefined();
      if (parsed.failures.length > 0 && parsed.failed !== undefined) expect(parsed.failed).toBeGreaterThan(0);
    });
  }

  it.each([
    ['gradle-plain.txt', 'gradle', 5],
    ['karma-mocha.txt', 'karma', 6],
    ['ant-junit-plain.txt', 'ant-junit', 5],
    ['redis-tcl-only.txt', 'redis-tcl', 25],
    ['automake-tap.txt', 'automake', 5],
    ['micropython-run-tests.txt', 'micropython', 17],
    ['micropython-run-tests-v1.22.txt', 'micropython', 15],
  ] as const)(
    '%s: lists each test once and nothing else (no task line, no `(skipped)` title)',
    (name, framework, count) => {
      const parsed = parseTestOutput(fixture(name), { framework });
      expect(parsed.tests).toHaveLength(count);
      expect(parsed.tests.map((test) => test.name)).not.toContain(':test');
    },
  );

  it('ant-junit-plain.txt with a FAILED line lost: lists no pass for that class, whose count line no longer agrees', () => {
    const lines = fixture('ant-junit-plain.txt').split('\n');
    const damaged = lines.filter((line) => line.trim() !== '[junit] \tFAILED');
    expect(damaged).toHaveLength(lines.length - 1);
    const parsed = parseTestOutput(damaged.join('\n'), { framework: 'ant-junit' });
    const listed = statuses(parsed);
    expect(listed['com.example.MathTest.subtractsBadly']).toBeUndefined();
    expect(listed['com.example.MathTest.adds']).toBeUndefined();
    expect(listed['com.example.OkTest.alwaysFine']).toBe('passed');
    expect(counts(parsed)).toEqual({ passed: 2, failed: 2, skipped: 1, total: 5 });
  });

  it('reads TAP Bail out! and names a subtest that never got its result (TAP 14 format, hand-written)', () => {
    const text = [
      'TAP version 14',
      '# Subtest: db',
      '    ok 1 - connects',
      '    # Subtest: reads a row',
      'Bail out! database went away',
      '',
    ].join('\n');
    const parsed = parseTestOutput(text, { framework: 'tap' });
    expect(statuses(parsed)).toEqual({
      'db > connects': 'passed',
      'Bail out!': 'error',
      'db > reads a row': 'error',
    });
    expect(message(parsed, 'Bail out!')).toBe('database went away');
    expect(message(parsed, 'db > reads a row')).toMatch(/ended while this test was running/);
  });

  it('ctest names the googletest test running when its binary crashed (output from googletest/ctest formats)', () => {
    const text = [
      '1: [ RUN      ] Math.Adds',
      '1: [       OK ] Math.Adds (0 ms)',
      '1: [ RUN      ] Math.Segfaults',
      '1/1 Test #1: gtest-suite ......................***Exception: SegFault  0.01 sec',
      '',
      '0% tests passed, 1 tests failed out of 1',
    ].join('\n');
    const parsed = parseTestOutput(text);
    expect(parsed.framework).toBe('ctest');
    expect(statuses(parsed)).toEqual({
      'Math.Adds': 'passed',
      'Math.Segfaults': 'error',
      'gtest-suite': 'error',
    });
    expect(message(parsed, 'Math.Segfaults')).toBe(
      'still running when gtest-suite ended: Exception: SegFault',
    );
    expect(counts(parsed)).toEqual({ passed: 0, failed: 1, skipped: 0, total: 1 });
  });

  it('minitest and test-unit name the file whose load error ended the run before any test', () => {
    const crash = "test/test_x.rb:1:in `require_relative': cannot load such file -- /t/missing (LoadError)";
    for (const framework of ['minitest', 'test-unit'] as const) {
      const parsed = parseTestOutput(`${crash}\n\tfrom test/test_x.rb:1:in \`<main>'\n`, { framework });
      expect(statuses(parsed)).toEqual({ 'test/test_x.rb': 'error' });
      expect(message(parsed, 'test/test_x.rb')).toBe('cannot load such file -- /t/missing (LoadError)');
    }
  });
  it('reads the per-test lines the official v4.1.0 parsers read where our fixtures have none (jekyll cucumber, shoulda names)', () => {
    const cucumber = parseTestOutput('Posts with data .....\nPosts without a title ...F\n', {
      framework: 'cucumber',
    });
    expect(statuses(cucumber)).toEqual({ 'Posts with data': 'passed', 'Posts without a title': 'failed' });
    const shoulda = parseTestOutput('TestSite#test_: static files should be listed. = 0.01 s = .\n', {
      framework: 'minitest',
    });
    expect(statuses(shoulda)).toEqual({ 'TestSite#test_: static files should be listed': 'passed' });
  });
  // What such lines cost is measured in bench/parse-long-lines.ts (the backtracking patterns took
  // 73 s and 20 s here; the scans take milliseconds).
  it('gradle reads a line holding a long run of spaces', () => {
    const spaces = ' '.repeat(300_000);
    const parsed = parseTestOutput(
      `Calc > adds${spaces}FAILED\nCalc > x${spaces}y\n> Task :test${spaces}PASSED\nCalc > subs\tPASSED\n`,
      { framework: 'gradle' },
    );
    expect(statuses(parsed)).toEqual({ 'Calc > adds': 'failed', 'Calc > subs': 'passed' });
  }, 120_000);
  it('tap, automake and redis-tcl read lines holding long runs of spaces', () => {
    const spaces = ' '.repeat(100_000);
    const tap = parseTestOutput(`not ok 1 - adds${spaces}x${spaces}\nok 2 - subs${spaces}# SKIP later\n`, {
      framework: 'tap',
    });
    const automake = parseTestOutput(`FAIL: t/a${spaces}x:\nPASS: t/b${spaces}# SKIP no\n`, {
      framework: 'automake',
    });
    const redis = parseTestOutput(
      `[err]: adds${spaces}x${spaces}:\nexpected 1\n[err]: subs in tests/unit/x.tcl\nexpected 2\n`,
      { framework: 'redis-tcl' },
    );
    expect(statuses(tap)).toEqual({ [`adds${spaces}x`]: 'failed', subs: 'skipped' });
    expect(statuses(automake)).toEqual({ [`t/a${spaces}x:`]: 'failed', 't/b': 'passed' });
    expect(statuses(redis)).toEqual({ [`adds${spaces}x${spaces}:`]: 'failed', subs: 'failed' });
  }, 300_000);
  it('a line written twice with one copy cut short is not one more test (jq lines, TAP, micropython)', () => {
    const jq = parseTestOutput('[PASSED] top level\n[PASSED] top le\nvel\n', { framework: 'jest-json' });
    expect(statuses(jq)).toEqual({ 'top level': 'passed' });
    const tap = parseTestOutput('ok 1 math adds\nok 1 math ad\nok 2 math adds two\n', { framework: 'tap' });
    expect(statuses(tap)).toEqual({ 'math adds': 'passed', 'math adds two': 'passed' });
    const micropython = parseTestOutput('pass  basics/a.py\npass  basics/\n', { framework: 'micropython' });
    expect(statuses(micropython)).toEqual({ 'basics/a.py': 'passed' });
  });
});
