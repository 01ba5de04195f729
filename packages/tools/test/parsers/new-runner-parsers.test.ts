import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework, TestStatus } from '../../src/parsers/test-output-types.js';

// Issue 9 item 5: the runners every SWE-bench (v4.1.0) repository uses beyond Python. Fixtures are
// real runner output (generate.sh) except the *-hand.txt ones, written from the runner's format
// where no runner runs offline here (each says so in its first line).
const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const statuses = (parsed: ParsedTestOutput): Record<string, TestStatus> =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));
const counts = (parsed: ParsedTestOutput) => ({ passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped, total: parsed.total });
const message = (parsed: ParsedTestOutput, name: string): string | undefined => parsed.failures.find((failure) => failure.name === name)?.message;

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
    messages: { 'db "before all" hook for "reads a row"': 'cannot connect to db', 'math subtracts badly': /strictly equal/ },
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
    tests: { 'math > adds': 'passed', 'math > nested > fails': 'failed', 'math > skipped': 'skipped', 'top level': 'passed' },
  },
  {
    fixture: 'jest-kinds-json.txt',
    framework: 'jest-json',
    counts: { passed: 1, failed: 2, skipped: 0, total: 2 },
    tests: { works: 'passed', 'db > reads a row': 'failed', '/tmp/suite/jk/src/broken.test.js': 'error' },
    messages: { '/tmp/suite/jk/src/broken.test.js': /Cannot find module '\.\/missing'/, 'db > reads a row': /cannot connect to db/ },
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
    messages: { 'Setup > Reads a row': 'RuntimeException: cannot connect to db', 'Math > Subtracts badly': 'Failed asserting that 1 is identical to 3.' },
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
    messages: { 'math nested raises': 'RuntimeError: boom', 'db reads a row': 'RuntimeError: cannot connect to db' },
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
    tests: { adds: 'passed', 'subtracts badly': 'failed', 'is pending': 'skipped', 'is skipped': 'skipped', raises: 'failed', 'reads a row': 'failed' },
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
    messages: { 'TestMath#test_raises': 'RuntimeError: boom', 'TestMath#test_subtracts_badly': 'Expected: 3' },
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
    messages: { throws: /unexpected exception with message: boom/, 'subtracts badly': /REQUIRE\( 2 - 1 == 3 \)/ },
  },
  {
    fixture: 'catch2-junit.txt',
    framework: 'catch2',
    counts: { passed: 2, failed: 3, skipped: 0, total: 5 },
    tests: { 'adds numbers': 'passed', 'subtracts badly': 'failed', throws: 'error', 'sections/first': 'passed', 'sections/second': 'failed' },
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
    counts: { passed: 1, failed: 3, skipped: undefined, total: 4 },
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
    messages: { 'Math.Throws': /C\+\+ exception with description "boom"/, crashes: /Subprocess aborted/, 'missing-binary': 'Not Run' },
  },
  {
    fixture: 'ctest-default.txt',
    framework: 'ctest',
    counts: { passed: 1, failed: 3, skipped: undefined, total: 4 },
    tests: { 'Math.Adds': 'passed', 'Math.SubtractsBadly': 'failed', crashes: 'error', 'ok-shell': 'passed' },
  },
  {
    fixture: 'gtest-plain.txt',
    framework: 'ctest',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: { 'Math.Adds': 'passed', 'Math.SubtractsBadly': 'failed', 'Math.Throws': 'failed', 'Math.Skipped': 'skipped' },
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
    tests: { 'math subtracts badly': 'failed', 'math nested throws': 'failed', db: 'error', 'math is skipped': 'skipped' },
    messages: { db: 'Error: cannot disconnect', 'math subtracts badly': 'Expected 1 to be 3.' },
  },
  {
    fixture: 'karma-mocha-hand.txt',
    framework: 'karma',
    counts: { passed: 3, failed: 1, skipped: 1, total: 5 },
    tests: {
      'Components > should render a component': 'passed',
      'Components > should keep refs when re-rendering': 'failed',
      'Components > nested > should unmount children': 'passed',
      'Events > should add event listeners': 'passed',
    },
    messages: { 'Components > should keep refs when re-rendering': "AssertionError: expected null to equal 'div'" },
  },
  {
    fixture: 'karma-progress-hand.txt',
    framework: 'karma',
    counts: { passed: 5, failed: 1, skipped: undefined, total: undefined },
    tests: { 'Chart.controllers.line should draw all elements': 'failed' },
    messages: { 'Chart.controllers.line should draw all elements': 'Expected 3 to be 4.' },
  },
  {
    fixture: 'maven-surefire.txt',
    framework: 'maven',
    counts: { passed: 1, failed: 2, skipped: 1, total: 4 },
    tests: { 'com.example.MathTest.subtractsBadly': 'failed', 'com.example.MathTest.throwsOne': 'error' },
    messages: {
      'com.example.MathTest.subtractsBadly': 'org.opentest4j.AssertionFailedError: expected: <3> but was: <1>',
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
    messages: { 'org.apache.maven.plugins:maven-compiler-plugin:testCompile': /Broken\.java: cannot find symbol$/ },
  },
  {
    fixture: 'gradle-plain-hand.txt',
    framework: 'gradle',
    counts: { passed: 2, failed: 1, skipped: 1, total: 4 },
    tests: {
      'io.reactivex.rxjava3.core.MathTest > adds': 'passed',
      'io.reactivex.rxjava3.core.MathTest > subtractsBadly': 'failed',
      'io.reactivex.rxjava3.core.MathTest > disabledOne': 'skipped',
      'io.reactivex.rxjava3.core.FlowableTest > mapsValues': 'passed',
    },
  },
  {
    fixture: 'gradle-compile-error-hand.txt',
    framework: 'gradle',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: { ':compileTestJava': 'error' },
    messages: { ':compileTestJava': "Execution failed for task ':compileTestJava'." },
  },
  {
    fixture: 'ant-junit-hand.txt',
    framework: 'ant-junit',
    counts: { passed: 2, failed: 2, skipped: 0, total: 4 },
    tests: {
      'testBuilderSimple(lombok.transform.TestWithEcj)': 'passed',
      'testGetterLazy(lombok.transform.TestWithEcj)': 'failed',
      'testValPlain(lombok.transform.TestWithEcj)': 'error',
    },
  },
  {
    fixture: 'redis-tcl-hand.txt',
    framework: 'redis-tcl',
    counts: { passed: undefined, failed: undefined, skipped: undefined, total: undefined },
    tests: {
      'INCR against non existing key': 'passed',
      'INCRBYFLOAT does not allow NaN or Infinity': 'failed',
      'INCR uses shared objects in the 0-9999 range': 'skipped',
      'Not supported in cluster mode': 'skipped',
    },
    messages: { 'INCRBYFLOAT does not allow NaN or Infinity': /^Expected 'ERR\*would produce\*'/ },
  },
  {
    fixture: 'automake-hand.txt',
    framework: 'automake',
    counts: { passed: 2, failed: 2, skipped: 2, total: 6 },
    tests: { 'tests/jqtest': 'passed', 'tests/shtest': 'failed', 'tests/utf8test': 'skipped', 'tests/optionaltest': 'skipped', 'tests/onigtest': 'error' },
  },
  {
    fixture: 'micropython-hand.txt',
    framework: 'micropython',
    counts: { passed: 3, failed: 1, skipped: 1, total: 5 },
    tests: { 'basics/string_format.py': 'passed', 'basics/string_format_modulo.py': 'failed', 'basics/string_format_cp310.py': 'skipped' },
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
      for (const test of parsed.tests) if (test.status === 'failed' || test.status === 'error') expect(message(parsed, test.name)).toBeDefined();
      if (parsed.failures.length > 0 && parsed.failed !== undefined) expect(parsed.failed).toBeGreaterThan(0);
    });
  }

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
    expect(statuses(parsed)).toEqual({ 'db > connects': 'passed', 'Bail out!': 'error', 'db > reads a row': 'error' });
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
    expect(statuses(parsed)).toEqual({ 'Math.Adds': 'passed', 'Math.Segfaults': 'error', 'gtest-suite': 'error' });
    expect(message(parsed, 'Math.Segfaults')).toBe('still running when gtest-suite ended: Exception: SegFault');
    expect(counts(parsed)).toEqual({ passed: 0, failed: 1, skipped: undefined, total: 1 });
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
    const cucumber = parseTestOutput('Posts with data .....\nPosts without a title ...F\n', { framework: 'cucumber' });
    expect(statuses(cucumber)).toEqual({ 'Posts with data': 'passed', 'Posts without a title': 'failed' });
    const shoulda = parseTestOutput('TestSite#test_: static files should be listed. = 0.01 s = .\n', { framework: 'minitest' });
    expect(statuses(shoulda)).toEqual({ 'TestSite#test_: static files should be listed': 'passed' });
  });
  it('a line written twice with one copy cut short is not one more test (jq lines, TAP, micropython)', () => {
    const jq = parseTestOutput('[PASSED] top level\n[PASSED] top le\nvel\n', { framework: 'jest-json' });
    expect(statuses(jq)).toEqual({ 'top level': 'passed' });
    const tap = parseTestOutput('ok 1 math adds\nok 1 math ad\nok 2 math adds two\n', { framework: 'tap' });
    expect(statuses(tap)).toEqual({ 'math adds': 'passed', 'math adds two': 'passed' });
    const micropython = parseTestOutput('pass  basics/a.py\npass  basics/\n', { framework: 'micropython' });
    expect(statuses(micropython)).toEqual({ 'basics/a.py': 'passed' });
  });
});
