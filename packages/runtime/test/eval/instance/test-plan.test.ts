import { describe, expect, it } from 'vitest';
import { testPlan } from '../../../src/eval/instance/test-plan.js';
import { sweBenchInstanceSchema } from '../../../src/eval/load/swe-bench-instance.js';

const row = (extra: Record<string, unknown>) =>
  sweBenchInstanceSchema.parse({
    instance_id: 'psf__requests-2317',
    repo: 'psf/requests',
    version: '2.4',
    base_commit: 'a'.repeat(40),
    patch: '',
    test_patch:
      'diff --git a/test_requests.py b/test_requests.py\n--- a/test_requests.py\n+++ b/test_requests.py\n@@ -1 +1 @@\n-a\n+b\n',
    FAIL_TO_PASS: '[]',
    PASS_TO_PASS: '[]',
    ...extra,
  });

describe('testPlan', () => {
  describe('when the spec table knows the repository and version', () => {
    it('activates testbed, runs the official command on the test files, and grades with the official id form', () => {
      const plan = testPlan(row({}));
      expect(plan).toMatchObject({
        source: 'spec',
        parser: 'pytest',
        officialParser: 'parse_log_pytest_options',
        failOnly: false,
        test: {
          activate: ['source /opt/miniconda3/bin/activate', 'conda activate testbed'],
          testCommand: 'pytest -rA test_requests.py',
          resetFiles: ['test_requests.py'],
          applyTestPatch: 'git apply -v -',
        },
      });
    });
  });

  describe('when the version is unknown and the row has no test_cmd', () => {
    it('throws invalid_record listing the known versions', () => {
      expect(() => testPlan(row({ version: '0.0' }))).toThrow(
        expect.objectContaining({ code: 'invalid_record' }),
      );
    });
  });

  describe('when a row of a known repository has its own test_cmd and no table row (no version, or an unknown one)', () => {
    it.each([
      ['django__django-1', 'django/django', 'django', 'parse_log_django'],
      ['sympy__sympy-1', 'sympy/sympy', 'sympy', 'parse_log_sympy'],
      ['psf__requests-1', 'psf/requests', 'pytest', 'parse_log_pytest_options'],
    ])(
      'reads %s with the repository parser, as upstream picks it by repository',
      (id, repo, parser, official) => {
        for (const version of [undefined, '99.9']) {
          const plan = testPlan(row({ instance_id: id, repo, version, test_cmd: 'run-tests' }));
          expect(plan, `${repo} ${version}`).toMatchObject({
            source: 'row',
            parser,
            officialParser: official,
            test: { testCommand: 'run-tests' },
          });
        }
      },
    );

    it("keeps the row's test_framework over the repository parser", () => {
      const plan = testPlan(
        row({
          instance_id: 'django__django-1',
          repo: 'django/django',
          version: undefined,
          test_cmd: 'x',
          test_framework: 'pytest',
        }),
      );
      expect(plan).toMatchObject({ parser: 'pytest', officialParser: 'parse_log_django' });
    });
  });

  describe('when the repository is outside the table', () => {
    it("uses sandkit's default command for the row's framework, with nothing injected", () => {
      const plan = testPlan(row({ instance_id: 'me__tool-1', repo: 'me/tool', test_framework: 'go' }));
      expect(plan).toMatchObject({
        source: 'default',
        parser: 'go',
        officialParser: null,
        test: { activate: [] },
      });
      expect(plan.test.testCommand).toBe('go test -v ./...');
    });
  });
});
