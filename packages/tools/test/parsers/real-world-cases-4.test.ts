import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework } from '../../src/parsers/test-output-types.js';

// The parser cases of ../shared/cases/real-world-cases-4.md (issue 26, section 4): each input as
// the case gives it, then the real runner output of the same kind (fixtures/runners, made by
// generate-set-4.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const statuses = (parsed: ParsedTestOutput): Record<string, string> =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));
const messageOf = (parsed: ParsedTestOutput, name: string): string | undefined =>
  parsed.failures.find((failure) => failure.name === name)?.message;
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});

describe('real-world cases, fourth set: parsers', () => {
  describe('F09: Maven Surefire >= 3.1.1 prints `-- in` / `-- Time elapsed`', () => {
    it('F09: names each failed test with its message and each passing class (surefire 3.2.5)', () => {
      const parsed = parseTestOutput(fixture('maven-surefire-3.txt'));
      expect(parsed.framework).toBe('maven');
      expect(statuses(parsed)).toEqual({
        'com.acme.CalcTest.alwaysFails': 'failed',
        'com.acme.CalcTest.flakyOnce': 'failed',
        'com.acme.OkTest': 'passed',
      });
      expect(messageOf(parsed, 'com.acme.CalcTest.alwaysFails')).toBe(
        'org.opentest4j.AssertionFailedError: expected: <5> but was: <4>',
      );
      expect(messageOf(parsed, 'com.acme.CalcTest.flakyOnce')).toBe(
        'org.opentest4j.AssertionFailedError: first try fails ==> expected: <1> but was: <2>',
      );
      expect(counts(parsed)).toEqual({ passed: 3, failed: 2, skipped: 0, total: 5 });
    });

    it('F09: reads the new layout and the pre-3.1.1 one the same way', () => {
      const newer = fixture('maven-surefire-3.txt');
      const older = newer.replaceAll(' -- in ', ' - in ').replaceAll(' -- Time elapsed', '  Time elapsed');
      expect(older).not.toBe(newer);
      const a = parseTestOutput(newer, { framework: 'maven' });
      const b = parseTestOutput(older, { framework: 'maven' });
      expect(a.tests).toEqual(b.tests);
      expect(a.failures).toEqual(b.failures);
    });

    it('F09: gives a test that surefire reran and lists under `Flakes:` one status, passed, outcome flaky', () => {
      const parsed = parseTestOutput(fixture('maven-surefire-3-rerun.txt'));
      expect(parsed.tests).toEqual([
        { name: 'com.acme.CalcTest.alwaysFails', status: 'failed', tries: 3 },
        { name: 'com.acme.CalcTest.flakyOnce', status: 'passed', outcome: 'flaky', tries: 2 },
        { name: 'com.acme.OkTest', status: 'passed' },
      ]);
      expect(parsed.failures.map((failure) => failure.name)).toEqual(['com.acme.CalcTest.alwaysFails']);
      // `Tests run: 5, Failures: 1, Errors: 0, Skipped: 0, Flakes: 1`: surefire counts the flake as passed.
      expect(counts(parsed)).toEqual({ passed: 4, failed: 1, skipped: 0, total: 5 });
    });
  });

  describe('F09: pytest-rerunfailures marks a retried test RERUN', () => {
    it('F09: gives a retried test the status of its last run, flaky when it passed, and never counts the reruns', () => {
      const verbose = parseTestOutput(fixture('pytest-rerun-verbose.txt'));
      expect(verbose.tests).toEqual([
        { name: 'test_flaky.py::test_fine', status: 'passed' },
        { name: 'test_flaky.py::test_flaky', status: 'passed', outcome: 'flaky', tries: 2 },
        { name: 'test_flaky.py::test_always', status: 'failed', tries: 3 },
      ]);
      expect(counts(verbose)).toEqual({ passed: 2, failed: 1, skipped: 0, total: 3 });
      // Without -v pytest names no try: the statuses and counts are the same, no flaky mark.
      const ra = parseTestOutput(fixture('pytest-rerun-ra.txt'));
      expect(statuses(ra)).toEqual(statuses(verbose));
      expect(counts(ra)).toEqual(counts(verbose));
    });
  });

  describe('F11: cargo-nextest re-prints each failing test libtest output', () => {
    const failureBlock = (name: string, line: number, message: string): string[] => [
      `--- STDOUT:              tiny ${name} ---`,
      '',
      'running 1 test',
      `test ${name} ... FAILED`,
      '',
      'failures:',
      '',
      'failures:',
      `    ${name}`,
      '',
      'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s',
      '',
      `--- STDERR:              tiny ${name} ---`,
      `thread '${name}' panicked at src/lib.rs:${line}:9:`,
      message,
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
      '',
    ];
    const input = [
      '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.40s',
      '    Starting 4 tests across 1 binary (run ID: 5e3f0c1a-8f7e-4c1b-9a55-0f3e2d1c4b6a, nextest profile: default)',
      '        PASS [   0.004s] tiny tests::adds',
      '        FAIL [   0.006s] tiny tests::always_panics',
      ...failureBlock('tests::always_panics', 12, 'boom'),
      '        PASS [   0.005s] tiny tests::also_fine',
      '        FAIL [   0.007s] tiny tests::bad_assert',
      ...failureBlock('tests::bad_assert', 17, 'assertion `left == right` failed'),
      '------------',
      '     Summary [   0.012s] 4 tests run: 2 passed, 2 failed, 0 skipped',
      '        FAIL [   0.006s] tiny tests::always_panics',
      '        FAIL [   0.007s] tiny tests::bad_assert',
      'error: test run failed',
    ].join('\n');

    it("F11: takes the counts from nextest's Summary line, never from the re-printed libtest lines", () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('cargo');
      expect(counts(parsed)).toEqual({ passed: 2, failed: 2, skipped: 0, total: 4 });
      expect(statuses(parsed)).toEqual({
        'tests::adds': 'passed',
        'tests::always_panics': 'failed',
        'tests::also_fine': 'passed',
        'tests::bad_assert': 'failed',
      });
      expect(messageOf(parsed, 'tests::always_panics')).toBe('panicked at src/lib.rs:12:9: boom');
    });

    it('F11: gives a test nextest retried one status: passed with outcome flaky when it passed on a retry', () => {
      const retried = [
        '    Starting 2 tests across 1 binary (run ID: 1, nextest profile: default)',
        '        PASS [   0.004s] tiny tests::adds',
        '   TRY 1 FAIL [   0.006s] tiny tests::flaky',
        ...failureBlock('tests::flaky', 20, 'first try'),
        '  TRY 2 PASS [   0.005s] tiny tests::flaky',
        '------------',
        '     Summary [   0.012s] 2 tests run: 2 passed (1 flaky), 0 skipped',
        '       FLAKY 2/2 [   0.005s] tiny tests::flaky',
      ].join('\n');
      const parsed = parseTestOutput(retried);
      expect(parsed.tests).toEqual([
        { name: 'tests::adds', status: 'passed' },
        { name: 'tests::flaky', status: 'passed', outcome: 'flaky', tries: 2 },
      ]);
      expect(parsed.failures).toEqual([]);
      expect(counts(parsed)).toEqual({ passed: 2, failed: 0, skipped: 0, total: 2 });
    });
  });

  describe('F15: unittest -v with a status glued to output printed without a newline', () => {
    it.each<TestFramework>(['unittest', 'django'])(
      'F15: finds every test with its status in real python -m unittest -v output (read as %s)',
      (framework) => {
        const parsed = parseTestOutput(fixture('unittest-glued-status.txt'), { framework });
        expect(statuses(parsed)).toEqual({
          'test_error (test_glue.T.test_error)': 'error',
          'test_fail (test_glue.T.test_fail)': 'failed',
          'test_ok (test_glue.T.test_ok)': 'passed',
          'test_plain (test_glue.T.test_plain)': 'passed',
          'test_skip (test_glue.T.test_skip)': 'skipped',
        });
        expect(counts(parsed)).toEqual({ passed: 2, failed: 2, skipped: 1, total: 5 });
      },
    );

    it('F15: reads the glued status in the Python < 3.11 name form and with expected failures', () => {
      const parsed = parseTestOutput(
        [
          'test_a (m.T) ... partialok',
          "test_b (m.T) ... partialskipped 'later'",
          'test_c (m.T) ... partialexpected failure',
          'test_d (m.T) ... look book',
          'FAIL',
          '',
          '----------------------------------------------------------------------',
          'Ran 4 tests in 0.001s',
          '',
          'FAILED (failures=1, skipped=1, expected failures=1)',
        ].join('\n'),
        { framework: 'unittest' },
      );
      expect(statuses(parsed)).toEqual({
        'test_a (m.T)': 'passed',
        'test_b (m.T)': 'skipped',
        'test_c (m.T)': 'skipped',
        // `book` ends in `ok`, but the FAIL on the next line is the test's status.
        'test_d (m.T)': 'failed',
      });
    });
  });
});

describe('parseTestOutput', () => {
  describe('when pytest is older than 5 (`in 6.79 seconds`)', () => {
    it.each([
      [
        '============ 242 passed, 1 warnings in 6.79 seconds ============',
        { passed: 242, failed: 0, skipped: 0, total: 242 },
      ],
      ['=== 1 failed, 2 passed in 0.12 seconds ===', { passed: 2, failed: 1, skipped: 0, total: 3 }],
      ['1 failed, 2 passed, 3 skipped in 0.12 seconds', { passed: 2, failed: 1, skipped: 3, total: 6 }],
    ])('reads the counts of %s', (line, expected) => {
      const parsed = parseTestOutput(`test_a.py::test_x PASSED\n${line}\n`, { framework: 'pytest' });
      expect(counts(parsed)).toEqual(expected);
    });

    it('detects pytest from the old bordered summary alone', () => {
      expect(parseTestOutput('=== 1 failed, 2 passed in 0.12 seconds ===\n').framework).toBe('pytest');
    });
  });

  describe('when the framework is not one it knows', () => {
    it('throws SandkitError invalid_option that lists the valid names', () => {
      let thrown: unknown;
      try {
        parseTestOutput('ok', { framework: 'nosetests' as TestFramework });
      } catch (error) {
        thrown = error;
      }
      expect(SandkitError.isInstance(thrown)).toBe(true);
      expect((thrown as SandkitError).code).toBe('invalid_option');
      expect((thrown as SandkitError).message).toMatch(
        /unknown framework "nosetests"; use one of jest, vitest, pytest,/,
      );
    });
  });
});
