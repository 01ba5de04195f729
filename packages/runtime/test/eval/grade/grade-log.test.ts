import { describe, expect, it } from 'vitest';
import { gradeLog } from '../../../src/eval/grade/grade-log.js';

const wrap = (before: string, tests: string) =>
  `${before}\n+ : '>>>>> Start Test Output'\n${tests}\n+ : '>>>>> End Test Output'\n`;
const pytest = { parser: 'pytest', failOnly: false } as const;

describe('gradeLog', () => {
  describe('when a sphinx/tox log is coloured', () => {
    it('grades by what the tests did', () => {
      const log = wrap(
        'Applied patch tests/test_build.py cleanly.',
        [
          'py39 run-test: commands[0] | python -X dev -m pytest -rA --durations 25 tests/test_build.py',
          '\x1b[32mPASSED\x1b[0m tests/test_build.py::\x1b[1mtest_build[dirhtml]\x1b[0m',
          '\x1b[31mFAILED\x1b[0m tests/test_build.py::\x1b[1mtest_other\x1b[0m - assert 1 == 2',
        ].join('\n'),
      );
      const graded = gradeLog(log, {
        ...pytest,
        officialParser: 'parse_log_pytest_v2',
        FAIL_TO_PASS: ['tests/test_build.py::test_build[dirhtml]'],
        PASS_TO_PASS: ['tests/test_build.py::test_other'],
      });
      expect(graded.hadAnsi).toBe(true);
      expect(graded.grade.tests_status.FAIL_TO_PASS.success).toEqual([
        'tests/test_build.py::test_build[dirhtml]',
      ]);
      expect(graded.grade.tests_status.PASS_TO_PASS.failure).toEqual(['tests/test_build.py::test_other']);
      expect(graded.resolved).toBe(false);
    });
  });

  describe('when a parametrised id holds a space', () => {
    it('matches the dataset id in the official (cut) form and in the whole form', () => {
      const log = wrap('', 'PASSED t.py::test_fmt[5400-1h 30m]\nPASSED t.py::test_fmt[60-1m]');
      const lists = { FAIL_TO_PASS: ['t.py::test_fmt[5400-1h'], PASS_TO_PASS: ['t.py::test_fmt[60-1m]'] };
      expect(gradeLog(log, { ...pytest, officialParser: 'parse_log_pytest', ...lists }).resolved).toBe(true);
      const whole = { FAIL_TO_PASS: ['t.py::test_fmt[5400-1h 30m]'], PASS_TO_PASS: [] };
      expect(gradeLog(log, { ...pytest, officialParser: 'parse_log_pytest', ...whole }).resolved).toBe(true);
    });
  });

  describe('when the test patch failed to apply', () => {
    it('is never resolved, even with an empty FAIL_TO_PASS list', () => {
      const log = wrap(
        "+ git apply -v - <<'EOF_114329324912'\nerror: tests/test_new.py: already exists in working directory",
        'PASSED t.py::test_a',
      );
      const graded = gradeLog(log, {
        ...pytest,
        officialParser: 'parse_log_pytest',
        FAIL_TO_PASS: [],
        PASS_TO_PASS: ['t.py::test_a'],
      });
      expect(graded.grade.resolved).toBe(true);
      expect(graded.testPatchError).toBe('error: tests/test_new.py: already exists in working directory');
      expect(graded.resolved).toBe(false);
    });

    it('ignores git checkout failing on a file the test patch creates', () => {
      const log = wrap(
        "+ git checkout abc tests/test_new.py\nerror: pathspec 'tests/test_new.py' did not match any file(s) known to git\n+ git apply -v -\nApplied patch tests/test_new.py cleanly.",
        'PASSED t.py::test_a',
      );
      expect(
        gradeLog(log, { ...pytest, officialParser: null, FAIL_TO_PASS: ['t.py::test_a'], PASS_TO_PASS: [] })
          .resolved,
      ).toBe(true);
    });
  });

  describe('when the log holds an official bad code or no end marker', () => {
    it.each([
      ['>>>>> Tests Timed Out', `${wrap('', 'PASSED t.py::a')}\n>>>>> Tests Timed Out`, 'timeout'],
      ['>>>>> Patch Apply Failed', '>>>>> Patch Apply Failed\nerror: patch failed: a.py:1\n', 'patch_apply'],
      ['>>>>> Reset Failed', `${wrap('', 'PASSED t.py::a')}\n>>>>> Reset Failed`, 'repo'],
      ['no end marker', "+ : '>>>>> Start Test Output'\nPASSED t.py::a\n", 'incomplete_log'],
      ['no start marker', '+ pip install -e .\nerror: no such option\n', 'incomplete_log'],
    ])('is not evaluated (%s) and says which kind of error that is', (_, log, kind) => {
      const graded = gradeLog(log, {
        ...pytest,
        officialParser: null,
        FAIL_TO_PASS: ['t.py::a'],
        PASS_TO_PASS: [],
      });
      expect(graded.evaluated).toBe(false);
      expect(graded.resolved).toBe(false);
      expect(graded.notEvaluatedKind).toBe(kind);
    });

    it('says the tests never started when the start marker is missing', () => {
      const graded = gradeLog('+ pip install -e .\n', {
        ...pytest,
        officialParser: null,
        FAIL_TO_PASS: [],
        PASS_TO_PASS: [],
      });
      expect(graded.notEvaluatedReason).toBe(
        'the log has no ">>>>> Start Test Output" marker: the tests never started (or this is not an evaluation log)',
      );
    });
  });

  describe('when the repository is FAIL_ONLY', () => {
    it('fails a listed test only on a FAILED status', () => {
      const log = wrap('', 'PASSED t.py::a\nFAILED t.py::b');
      const graded = gradeLog(log, {
        ...pytest,
        officialParser: null,
        failOnly: true,
        FAIL_TO_PASS: ['t.py::a', 't.py::absent'],
        PASS_TO_PASS: [],
      });
      expect(graded.resolved).toBe(true);
      expect(
        gradeLog(log, {
          ...pytest,
          officialParser: null,
          failOnly: true,
          FAIL_TO_PASS: ['t.py::b'],
          PASS_TO_PASS: [],
        }).resolved,
      ).toBe(false);
    });
  });
});
