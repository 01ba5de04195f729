/**
 * sandkit's evaluation scripts against the eval.sh files a public run of the official harness kept
 * (fixtures/grade/logs/run_evaluation/public-lite-37, README.md there). That run used SWE-bench 5,
 * whose scripts come with the dataset rows and get two lines more than v4.1.0's around the end
 * marker (`record_test_exit_code` in swebench/harness/utils.py: `SWEBENCH_TEST_EXIT_CODE=$?` and
 * its echo); sandkit writes v4.1.0's, so those two lines are left out of the comparison.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { officialEvalScript } from '../../../src/eval/specs/official-eval-script.js';
import { repoRoot } from '../eval-test-helpers.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
const model = join(fixtures, 'logs/run_evaluation/public-lite-37/glm-5.3-zcode-campaign');
const rows = readFileSync(join(fixtures, 'dataset-public-lite-37.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line))
  .filter((row) => existsSync(join(model, row.instance_id, 'eval.sh')));
const exitCodeLines =
  /^(SWEBENCH_TEST_EXIT_CODE=\$\?|echo ">>>>> Test Exit Code: \$SWEBENCH_TEST_EXIT_CODE")$/;
/** Lines of the public eval.sh, less SWEBENCH_TEST_EXIT_CODE's two. */
const publicScript = (id: string) =>
  readFileSync(join(model, id, 'eval.sh'), 'utf8')
    .split('\n')
    .filter((line) => !exitCodeLines.test(line));
const testCommand = (lines: readonly string[]) => lines[lines.indexOf(": '>>>>> Start Test Output'") + 1];

describe('officialEvalScript', () => {
  it('has public eval.sh files to compare with', () => {
    expect(rows.map((row) => row.instance_id)).toEqual([
      'django__django-10924',
      'django__django-11001',
      'django__django-11049',
      'django__django-11630',
      'django__django-12286',
      'django__django-12453',
      'django__django-12983',
      'pylint-dev__pylint-5859',
      'pylint-dev__pylint-6506',
    ]);
  });

  describe.each(rows)('when the row is $instance_id of the public run', (row) => {
    it('runs the same test command with the same test directives as its eval.sh', () => {
      const ours = officialEvalScript(row).split('\n');
      const theirs = publicScript(row.instance_id);
      expect(testCommand(ours)).toBe(testCommand(theirs));
      expect(testCommand(ours)).toMatch(/^(\.\/tests\/runtests\.py|pytest -rA) \S/);
    });
  });

  describe.each(rows.filter((row) => row.instance_id !== 'django__django-10924'))(
    'when the test patch of $instance_id only modifies files',
    (row) => {
      it('writes its eval.sh line for line', () => {
        expect(officialEvalScript(row).split('\n')).toEqual(publicScript(row.instance_id));
      });
    },
  );

  describe('when the test patch creates a test file (django__django-10924)', () => {
    it("resets no files, as v4.1.0's get_modified_files; the SWE-bench 5 script names the new file", () => {
      const row = rows.find((r) => r.instance_id === 'django__django-10924');
      const ours = officialEvalScript(row).split('\n');
      const theirs = publicScript(row.instance_id);
      const reset = `git checkout ${row.base_commit} `;
      expect(ours.filter((line) => line.startsWith('git checkout '))).toEqual([reset, reset]);
      expect(theirs.filter((line) => line.startsWith('git checkout '))).toEqual([
        `${reset}tests/model_fields/test_filepathfield.py`,
        `${reset}tests/model_fields/test_filepathfield.py`,
      ]);
      // every other line is the same
      const others = (lines: string[]) => lines.filter((line) => !line.startsWith('git checkout '));
      expect(others(ours)).toEqual(others(theirs));
    });
  });
});
