import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework } from '../../src/parsers/test-output-types.js';

// Issue 26 section 4 (F09/F11's kind): a test the runner retried is one test, in the list and in
// the counts, with the status of its last run and its tries as the runner reports them. Real
// runs (generate-set-4.sh): pytest-rerunfailures, surefire 3.2.5 with rerunFailingTestsCount
// (console and its TEST-*.xml, whose suite attributes count only the last rerun pass), vitest
// `retry`, jest.retryTimes with logErrorsBeforeRetry. Each suite: one test passing, one passing on
// its second try, one failing all three.
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});

interface Row {
  fixture: string;
  framework: TestFramework;
  fine: string;
  flaky: string;
  always: string;
  /** The message of the test that failed every try. */
  message: string;
  total: number;
}

const rows: Row[] = [
  {
    fixture: 'pytest-rerun-verbose.txt',
    framework: 'pytest',
    fine: 'test_flaky.py::test_fine',
    flaky: 'test_flaky.py::test_flaky',
    always: 'test_flaky.py::test_always',
    message: 'assert 1 == 2',
    total: 3,
  },
  {
    fixture: 'maven-surefire-3-rerun.txt',
    framework: 'maven',
    // surefire names no passing test: the class of those that passed at once is listed
    fine: 'com.acme.OkTest',
    flaky: 'com.acme.CalcTest.flakyOnce',
    always: 'com.acme.CalcTest.alwaysFails',
    message: 'org.opentest4j.AssertionFailedError: expected: <5> but was: <4>',
    total: 5,
  },
  {
    fixture: 'junit-xml-surefire-3-rerun.txt',
    framework: 'junit-xml',
    fine: 'com.acme.CalcTest.addsNumbers',
    flaky: 'com.acme.CalcTest.flakyOnce',
    always: 'com.acme.CalcTest.alwaysFails',
    message: 'expected: <5> but was: <4>',
    total: 5,
  },
  {
    fixture: 'vitest-retry-verbose.txt',
    framework: 'vitest',
    fine: 'flaky.test.js > calc > fine',
    flaky: 'flaky.test.js > calc > flaky',
    always: 'flaky.test.js > calc > always',
    message: 'AssertionError: expected 1 to be 2 // Object.is equality',
    total: 3,
  },
  {
    fixture: 'jest-retry-verbose.txt',
    framework: 'jest',
    fine: 'calc › fine',
    flaky: 'calc › flaky',
    always: 'calc › always',
    message: 'expect(received).toBe(expected) // Object.is equality',
    total: 3,
  },
];

describe('retried tests: one test each, with its tries', () => {
  it.each(rows)('$fixture ($framework)', (row) => {
    const parsed = parseTestOutput(fixture(row.fixture));
    expect(parsed.framework).toBe(row.framework);
    const names = parsed.tests.map((test) => test.name);
    expect(new Set(names).size).toBe(names.length);
    expect(parsed.tests.find((test) => test.name === row.fine)).toEqual({ name: row.fine, status: 'passed' });
    expect(parsed.tests.find((test) => test.name === row.flaky)).toEqual({
      name: row.flaky,
      status: 'passed',
      outcome: 'flaky',
      tries: 2,
    });
    expect(parsed.tests.find((test) => test.name === row.always)).toEqual({
      name: row.always,
      status: 'failed',
      tries: 3,
    });
    // only the test that failed every try is a failure, with its own message
    expect(parsed.failures).toEqual([{ name: row.always, message: row.message }]);
    expect(counts(parsed)).toEqual({ passed: row.total - 1, failed: 1, skipped: 0, total: row.total });
  });

  it('vitest default reporter: the failing test once, its tries from its one FAIL header per try', () => {
    const parsed = parseTestOutput(fixture('vitest-retry-default.txt'));
    expect(parsed.tests).toEqual([{ name: 'flaky.test.js > calc > always', status: 'failed', tries: 3 }]);
    expect(parsed.failures).toEqual([
      {
        name: 'flaky.test.js > calc > always',
        message: 'AssertionError: expected 1 to be 2 // Object.is equality',
      },
    ]);
    expect(counts(parsed)).toEqual({ passed: 2, failed: 1, skipped: 0, total: 3 });
  });

  it('surefire: the console and the same run’s TEST-*.xml agree (the XML suite attributes say tests="1")', () => {
    const console = parseTestOutput(fixture('maven-surefire-3-rerun.txt'));
    const xml = parseTestOutput(fixture('junit-xml-surefire-3-rerun.txt'));
    expect(fixture('junit-xml-surefire-3-rerun.txt')).toMatch(
      /name="com\.acme\.CalcTest" time="[\d.]+" tests="1"/,
    );
    expect(counts(xml)).toEqual(counts(console));
    expect(xml.failures.map((failure) => failure.name)).toEqual(['com.acme.CalcTest.alwaysFails']);
  });

  it('pytest -rA without -v prints no try per test: the retried test is one passed test, no tries', () => {
    const parsed = parseTestOutput(fixture('pytest-rerun-ra.txt'));
    expect(parsed.tests.find((test) => test.name === 'test_flaky.py::test_flaky')).toEqual({
      name: 'test_flaky.py::test_flaky',
      status: 'passed',
    });
    expect(counts(parsed)).toEqual({ passed: 2, failed: 1, skipped: 0, total: 3 });
  });

  it('cargo nextest: TRY n lines and FLAKY n/m give the tries, each test once', () => {
    // nextest cannot be installed here (no crates registry): the lines have the shapes of nextest's
    // reporter (its recorded snapshots: `TRY 2 FAIL`, `FLAKY 2/3`, `{attempt}/{total attempts}`).
    const text = [
      '    Starting 3 tests across 1 binary (run ID: 1, nextest profile: default)',
      '        PASS [   0.004s] tiny tests::fine',
      '   TRY 1 FAIL [   0.006s] tiny tests::flaky',
      '   TRY 2 PASS [   0.005s] tiny tests::flaky',
      '   TRY 1 FAIL [   0.006s] tiny tests::always',
      '   TRY 2 FAIL [   0.006s] tiny tests::always',
      '   TRY 3 FAIL [   0.006s] tiny tests::always',
      '------------',
      '     Summary [   0.030s] 3 tests run: 2 passed (1 flaky), 1 failed, 0 skipped',
      '   FLAKY 2/3 [   0.005s] tiny tests::flaky',
      '   TRY 3 FAIL [   0.006s] tiny tests::always',
      'error: test run failed',
    ].join('\n');
    const parsed = parseTestOutput(text);
    expect(parsed.framework).toBe('cargo');
    expect(parsed.tests).toEqual([
      { name: 'tests::fine', status: 'passed' },
      { name: 'tests::flaky', status: 'passed', outcome: 'flaky', tries: 2 },
      { name: 'tests::always', status: 'failed', tries: 3 },
    ]);
    expect(counts(parsed)).toEqual({ passed: 2, failed: 1, skipped: 0, total: 3 });
  });
});
