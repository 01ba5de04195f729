import { describe, expect, it } from 'vitest';
import { gradeTests } from '../../../src/eval/instance/grade.js';
import { parseTestStatuses } from '../../../src/eval/instance/parse-test-statuses.js';

const pytestB01 = [
  'tests/test_fmt.py::test_render[a b-expected 1] PASSED                    [ 50%]',
  'tests/test_fmt.py::test_render[a b-expected 2] FAILED                    [100%]',
  '=========================== short test summary info ============================',
  'PASSED tests/test_fmt.py::test_render[a b-expected 1]',
  'FAILED tests/test_fmt.py::test_render[a b-expected 2] - AssertionError: 3 != 4',
  '========================= 1 failed, 1 passed in 0.02s ==========================',
].join('\n');

describe('gradeTests', () => {
  describe('when pytest parametrised ids contain spaces (B01)', () => {
    it('B01: grades each parameter set under its whole id, never a cut one', () => {
      const statuses = parseTestStatuses(pytestB01, 'pytest');
      const grade = gradeTests(statuses, {
        FAIL_TO_PASS: ['tests/test_fmt.py::test_render[a b-expected 1]'],
        PASS_TO_PASS: ['tests/test_fmt.py::test_render[a b-expected 2]'],
      });
      expect(grade.tests_status.FAIL_TO_PASS.success).toEqual([
        'tests/test_fmt.py::test_render[a b-expected 1]',
      ]);
      expect(grade.tests_status.PASS_TO_PASS.failure).toEqual([
        'tests/test_fmt.py::test_render[a b-expected 2]',
      ]);
      expect(grade.resolved).toBe(false);
      expect(grade.prefixMatches).toEqual([]);
    });

    it('B01: flags a listed id cut at the first space as matching only by prefix, and fails it', () => {
      const statuses = parseTestStatuses(pytestB01, 'pytest');
      const grade = gradeTests(statuses, {
        FAIL_TO_PASS: ['tests/test_fmt.py::test_render[a'],
        PASS_TO_PASS: [],
      });
      expect(grade.tests_status.FAIL_TO_PASS.failure).toEqual(['tests/test_fmt.py::test_render[a']);
      expect(grade.resolved).toBe(false);
      expect(grade.prefixMatches).toEqual([
        {
          list: 'FAIL_TO_PASS',
          test: 'tests/test_fmt.py::test_render[a',
          logged: [
            'tests/test_fmt.py::test_render[a b-expected 1]',
            'tests/test_fmt.py::test_render[a b-expected 2]',
          ],
        },
      ]);
    });
  });

  describe('when the log is coloured (B04)', () => {
    it('B04: grades tests hidden between ANSI escapes as if the log were plain', () => {
      const log = [
        'tests/test_a.py::test_one \x1b[32mPASSED\x1b[0m\x1b[32m                      [100%]\x1b[0m',
        '\x1b]8;;file:///x\x07link\x1b]8;;\x07',
        '\x1b[32m============================== \x1b[1m1 passed\x1b[0m\x1b[32m in 0.01s ===============================\x1b[0m',
      ].join('\n');
      const grade = gradeTests(parseTestStatuses(log, 'pytest'), {
        FAIL_TO_PASS: ['tests/test_a.py::test_one'],
        PASS_TO_PASS: [],
      });
      expect(grade.resolved).toBe(true);
      expect(grade.tests_status.FAIL_TO_PASS.success).toEqual(['tests/test_a.py::test_one']);
    });
  });

  describe('when cargo prints one summary per test binary (B06)', () => {
    it('B06: finds tests of every binary, doc-tests with spaces in their names included', () => {
      const log = [
        '     Running unittests src/lib.rs (target/debug/deps/mylib-0f1e2d)',
        'running 3 tests',
        'test tests::a ... ok',
        'test tests::b ... ok',
        'test tests::c ... ignored',
        'test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
        '',
        '     Running tests/api.rs (target/debug/deps/api-9a8b7c)',
        'running 2 tests',
        'test get_ok ... ok',
        'test post_ok ... FAILED',
        'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
        '',
        '   Doc-tests mylib',
        'running 1 test',
        'test src/lib.rs - add (line 3) ... ok',
        'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s',
      ].join('\n');
      const grade = gradeTests(parseTestStatuses(log, 'cargo'), {
        FAIL_TO_PASS: ['get_ok', 'src/lib.rs - add (line 3)'],
        PASS_TO_PASS: ['tests::a', 'tests::c', 'post_ok'],
      });
      expect(grade.tests_status.FAIL_TO_PASS).toEqual({
        success: ['get_ok', 'src/lib.rs - add (line 3)'],
        failure: [],
      });
      // an ignored (skipped) PASS_TO_PASS test is maintained, as in SWE-bench's test_maintained
      expect(grade.tests_status.PASS_TO_PASS).toEqual({
        success: ['tests::a', 'tests::c'],
        failure: ['post_ok'],
      });
      expect(grade.resolved).toBe(false);
    });
  });

  describe('when a listed test is absent from the log', () => {
    it('counts it as a failure and lists it as missing', () => {
      const grade = gradeTests(new Map([['t1', 'PASSED']]), { FAIL_TO_PASS: ['t1'], PASS_TO_PASS: ['t2'] });
      expect(grade.resolved).toBe(false);
      expect(grade.missing).toEqual(['t2']);
      expect(grade.tests_status.PASS_TO_PASS.failure).toEqual(['t2']);
    });

    it('fails a skipped FAIL_TO_PASS test but keeps a skipped PASS_TO_PASS test', () => {
      const statuses = new Map([
        ['f', 'SKIPPED'],
        ['p', 'SKIPPED'],
      ] as const);
      const grade = gradeTests(statuses, { FAIL_TO_PASS: ['f'], PASS_TO_PASS: ['p'] });
      expect(grade.tests_status.FAIL_TO_PASS.failure).toEqual(['f']);
      expect(grade.tests_status.PASS_TO_PASS.success).toEqual(['p']);
    });
  });
});
