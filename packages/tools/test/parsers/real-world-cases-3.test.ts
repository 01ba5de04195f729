import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import { getTestStatusMap } from '../../src/parsers/test-status-map.js';
import type { ParsedTestOutput } from '../../src/parsers/test-output-types.js';

// The parser cases of ../shared/cases/real-world-cases-3.md (issue 11): each input as the case
// gives it, then the real runner output of the same kind (fixtures/runners, made by generate.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const statuses = (parsed: ParsedTestOutput): Record<string, string> =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));
const messageOf = (parsed: ParsedTestOutput, name: string): string | undefined =>
  parsed.failures.find((failure) => failure.name === name)?.message;

describe('real-world cases, third set: parsers', () => {
  describe('D02: pytest-xdist per-test lines in the classic style', () => {
    const input = [
      '[gw0] PASSED test_calc.py::test_divides ',
      '[gw1] SKIPPED test_calc.py::test_skip ',
      '[gw1] FAILED test_calc.py::test_rejects_zero[pair0] ',
      '==================== 1 failed, 1 passed, 1 skipped in 2.11s ====================',
    ].join('\n');

    it('D02: gives every test its status from the classic-style xdist lines', () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('pytest');
      expect(statuses(parsed)).toEqual({
        'test_calc.py::test_divides': 'passed',
        'test_calc.py::test_skip': 'skipped',
        'test_calc.py::test_rejects_zero[pair0]': 'failed',
      });
      expect(parsed).toMatchObject({ passed: 1, failed: 1, skipped: 1, total: 3 });
    });

    it('D02: reads the real pytest -v -n 2 output in every console style (classic, progress, count)', () => {
      for (const file of [
        'pytest-xdist-classic.txt',
        'pytest-xdist-progress.txt',
        'pytest-xdist-count.txt',
      ]) {
        const parsed = parseTestOutput(fixture(file));
        expect(statuses(parsed), file).toEqual({
          'test_calc.py::test_divides': 'passed',
          'test_calc.py::test_skip': 'skipped',
          'test_calc.py::test_rejects_zero[pair0]': 'failed',
        });
        expect(messageOf(parsed, 'test_calc.py::test_rejects_zero[pair0]'), file).toBe(
          'ZeroDivisionError: division by zero',
        );
      }
    });
  });

  describe('D03: a Go test killed by a panic in a goroutine', () => {
    const input = [
      '=== RUN   TestOK',
      '--- PASS: TestOK (0.00s)',
      '=== RUN   TestPanics',
      'panic: assignment to entry in nil map',
      '',
      'goroutine 6 [running]:',
      'example.com/gp.TestPanics.func1()',
      '\t/tmp/gp/gp_test.go:13 +0x2e',
      'created by example.com/gp.TestPanics',
      '\t/tmp/gp/gp_test.go:11 +0x25',
      'FAIL\texample.com/gp\t0.006s',
      'FAIL',
    ].join('\n');

    it('D03: names the running test as failed with the panic line as its message', () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('go');
      expect(statuses(parsed)).toEqual({ TestOK: 'passed', TestPanics: 'failed' });
      expect(messageOf(parsed, 'TestPanics')).toBe('panic: assignment to entry in nil map');
      expect(parsed.failed).toBeGreaterThanOrEqual(1);
    });

    it('D03: does the same in the real -v and -json output', () => {
      for (const file of ['go-kinds-v.txt', 'go-kinds-json.txt']) {
        const parsed = parseTestOutput(fixture(file));
        expect(statuses(parsed), file).toMatchObject({ TestOK: 'passed', TestPanics: 'failed' });
        expect(messageOf(parsed, 'TestPanics'), file).toBe('panic: assignment to entry in nil map');
      }
    });

    it('D03: keeps the panic text as the message of a test that panicked in its own goroutine (--- FAIL printed)', () => {
      for (const file of ['go-kinds.txt', 'go-kinds-v.txt', 'go-kinds-json.txt']) {
        const parsed = parseTestOutput(fixture(file));
        expect(statuses(parsed).TestOwnPanic, file).toBe('failed');
        expect(messageOf(parsed, 'TestOwnPanic'), file).toBe(
          'panic: runtime error: index out of range [3] with length 0 [recovered]',
        );
      }
    });
  });

  describe('D04: unittest subtests on Python 3.10 and older', () => {
    const input = [
      'test_a_sub (test_n.T) ... test_b_ok (test_n.T) ... ok',
      'test_c_ok (test_n.T) ... ok',
      '',
      '======================================================================',
      'FAIL: test_a_sub (test_n.T) (i=1)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/tmp/test_n.py", line 8, in test_a_sub',
      '    self.assertNotEqual(i, 1)',
      'AssertionError: 1 == 1',
      '',
      '----------------------------------------------------------------------',
      'Ran 3 tests in 0.001s',
      '',
      'FAILED (failures=1)',
    ].join('\n');

    it.each(['unittest', 'django'] as const)(
      'D04: grades test_a_sub failed and keeps test_b_ok and test_c_ok passed (%s parser)',
      (framework) => {
        const parsed = parseTestOutput(input, { framework });
        expect(getTestStatusMap(parsed)).toEqual({
          'test_a_sub (test_n.T)': 'failed',
          'test_b_ok (test_n.T)': 'passed',
          'test_c_ok (test_n.T)': 'passed',
        });
        expect(parsed).toMatchObject({ passed: 2, failed: 1, total: 3 });
        expect(messageOf(parsed, 'test_a_sub (test_n.T)')).toBe('AssertionError: 1 == 1');
      },
    );

    it('D04: grades the failed-subtest test failed and its neighbours passed in real output of Python 3.8 to 3.13 (unittest) and 3.9 to 3.12 (Django)', () => {
      const layouts: Array<[string, string, boolean]> = [
        ['unittest-py38-kinds.txt', 'test_n.T', false],
        ['unittest-py39-kinds.txt', 'test_n.T', false],
        ['unittest-py310-kinds.txt', 'test_n.T', false],
        ['unittest-py311-kinds.txt', 'test_n.T', true],
        ['unittest-py312-kinds.txt', 'test_n.T', true],
        ['unittest-py313-kinds.txt', 'test_n.T', true],
        ['django-py39-kinds.txt', 'shop.tests.PriceTests', false],
        ['django-py310-kinds.txt', 'shop.tests.PriceTests', false],
        ['django-py311-kinds.txt', 'shop.tests.PriceTests', true],
        ['django-py312-kinds.txt', 'shop.tests.PriceTests', true],
      ];
      for (const [file, owner, longNames] of layouts) {
        const name = (test: string): string =>
          longNames ? `${test} (${owner}.${test})` : `${test} (${owner})`;
        const map = getTestStatusMap(parseTestOutput(fixture(file)));
        expect(map[name('test_a_sub')], file).toBe('failed');
        expect(map[name('test_b_ok')], file).toBe('passed');
        if (file.startsWith('unittest')) {
          expect(map[name('test_c_ok')], file).toBe('passed');
          expect(map[name('test_d_sub_ok')], file).toBe('passed');
        }
      }
    });
  });

  describe('E01: a Go build failure', () => {
    const input = [
      'ok  \texample.com/m/a\t0.004s',
      '# example.com/m/b [example.com/m/b.test]',
      'b/b_test.go:5:9: undefined: missing',
      'FAIL\texample.com/m/b [build failed]',
      'FAIL\texample.com/m/c [setup failed]',
      'FAIL',
    ].join('\n');

    it('E01: counts one failure for each package that could not build or set up, with the compiler line', () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('go');
      expect(statuses(parsed)).toEqual({ 'example.com/m/b': 'error', 'example.com/m/c': 'error' });
      expect(parsed.failures).toEqual([
        { name: 'example.com/m/b', message: 'b/b_test.go:5:9: undefined: missing' },
        { name: 'example.com/m/c', message: 'setup failed' },
      ]);
      expect(parsed.failed).toBe(2);
    });

    it('E01: counts them in the real plain, -v and -json output, where the compiler lines go to stderr', () => {
      for (const file of ['go-kinds.txt', 'go-kinds-v.txt', 'go-kinds-json.txt']) {
        const parsed = parseTestOutput(fixture(file));
        expect(messageOf(parsed, 'example.com/m/b'), file).toBe('b/b_test.go:5:32: undefined: missing');
        expect(messageOf(parsed, 'example.com/m/c'), file).toMatch(
          /^c\/c_test.go:6:2: no required module provides package example.com\/m\/nothere/,
        );
        expect(parsed.failed, file).toBeGreaterThanOrEqual(2);
      }
    });
  });

  describe('E02: a jest suite that fails to run', () => {
    const input = [
      'FAIL src/broken.test.js',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module './missing' from 'src/broken.test.js'",
      '',
      'PASS src/ok.test.js',
      '  ✓ works (2 ms)',
      '',
      'Test Suites: 1 failed, 1 passed, 2 total',
      'Tests:       1 passed, 1 total',
    ].join('\n');

    it('E02: counts the suite as one error named by its file, with the reason, and is not green', () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('jest');
      expect(statuses(parsed)).toEqual({ 'src/broken.test.js': 'error', works: 'passed' });
      expect(parsed.failures).toEqual([
        { name: 'src/broken.test.js', message: "Cannot find module './missing' from 'src/broken.test.js'" },
      ]);
      expect(parsed).toMatchObject({ passed: 1, failed: 1, total: 2 });
    });
  });
});
