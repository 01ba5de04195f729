import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import { getTestStatusMap } from '../../src/parsers/test-status-map.js';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');

describe('getTestStatusMap', () => {
  describe('when the run is pytest', () => {
    it('keys whole node ids and grades an expected failure as passed, as SWE-bench does', () => {
      const map = getTestStatusMap(parseTestOutput(fixture('pytest-verbose.txt')));
      expect(map['tests/test_fmt.py::test_render[a b-expected 1]']).toBe('passed');
      expect(map['tests/test_fmt.py::test_render[x [1] - y-brackets]']).toBe('failed');
      expect(map['tests/test_fmt.py::test_xfail']).toBe('passed');
      expect(map['tests/test_fmt.py::test_error']).toBe('error');
      expect(map['tests/test_fmt.py::test_skipped']).toBe('skipped');
      expect(Object.keys(map)).toHaveLength(11);
    });

    it('grades an unexpected pass (XPASS) as failed', () => {
      const map = getTestStatusMap(parseTestOutput('XPASS t.py::test_a - reason\n', { framework: 'pytest' }));
      expect(map).toEqual({ 't.py::test_a': 'failed' });
    });
  });

  describe('when the run is unittest or Django', () => {
    it('keys `test_x (module.Class.test_x)` as Python 3.11+ prints it, and the docstring line SWE-bench keys too', () => {
      const map = getTestStatusMap(parseTestOutput(fixture('django-verbose.txt')));
      expect(map['test_discount (shop.tests.PriceTests.test_discount)']).toBe('failed');
      expect(map['Discounts never go below zero.']).toBe('failed');
      expect(map['test_total (shop.tests.PriceTests.test_total)']).toBe('passed');
      expect(map['test_payment (shop.tests.PriceTests.test_payment)']).toBe('skipped');
    });

    it('reads the older `test_x (module.Class)` form, a docstring on the next line, and a status after interleaved output', () => {
      // Shapes of Django logs in SWE-bench (Python < 3.11): the status of test_path lands after
      // the test runner's own messages.
      const log = [
        'test_callable_path (model_fields.test_filepathfield.FilePathFieldTests) ... ERROR',
        "test_path (model_fields.test_filepathfield.FilePathFieldTests) ... Testing against Django installed in '/testbed/django'",
        'Importing application model_fields',
        'System check identified no issues (0 silenced).',
        'ok',
        'test_docstring (model_fields.tests.BasicFieldTests)',
        'A field with a docstring - and a dash. ... FAIL',
        "test_skip (model_fields.tests.BasicFieldTests) ... skipped 'no db'",
        '',
        '----------------------------------------------------------------------',
        'Ran 4 tests in 0.011s',
        '',
        'FAILED (failures=1, errors=1, skipped=1)',
      ].join('\n');
      const parsed = parseTestOutput(log);
      expect(parsed.framework).toBe('django');
      expect(parsed).toMatchObject({ passed: 1, failed: 2, skipped: 1, total: 4 });
      expect(getTestStatusMap(parsed)).toEqual({
        'test_callable_path (model_fields.test_filepathfield.FilePathFieldTests)': 'error',
        'test_path (model_fields.test_filepathfield.FilePathFieldTests)': 'passed',
        'test_docstring (model_fields.tests.BasicFieldTests)': 'failed',
        'A field with a docstring - and a dash.': 'failed',
        'test_skip (model_fields.tests.BasicFieldTests)': 'skipped',
      });
    });
  });

  describe('when the run is sympy', () => {
    it('keys bare function names from verbose lines', () => {
      expect(getTestStatusMap(parseTestOutput(fixture('sympy-verbose.txt')))).toEqual({
        test_expand: 'passed',
        test_wrong: 'failed',
        test_raises: 'error',
        test_skipped: 'skipped',
        test_known: 'passed',
      });
    });

    it('marks the tests of failure sections as failed when the run was not verbose', () => {
      expect(getTestStatusMap(parseTestOutput(fixture('sympy-default.txt')))).toEqual({
        test_raises: 'failed',
        test_wrong: 'failed',
      });
    });
  });
});
