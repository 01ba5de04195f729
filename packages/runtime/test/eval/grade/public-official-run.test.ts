import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrade } from '../../../src/eval/grade/run-grade.js';
import { repoRoot, runCli, tempDir } from '../eval-test-helpers.js';

/** A public run of the official harness (fixtures/grade/README.md says where it comes from). */
const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
const dataset = join(fixtures, 'dataset-public-lite-37.jsonl');
const run = join(fixtures, 'logs/run_evaluation/public-lite-37');
const model = join(run, 'glm-5.3-zcode-campaign');

interface ReportEntry {
  resolved: boolean;
  tests_status: Record<'FAIL_TO_PASS' | 'PASS_TO_PASS', { success: string[]; failure: string[] }>;
}
const entryOf = async (file: string, id: string): Promise<ReportEntry> =>
  JSON.parse(await readFile(file, 'utf8'))[id];

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('public-run'));
});
afterAll(() => cleanup());

describe('runGrade', () => {
  describe('when --logs is a public official run with its report.json files', () => {
    it('gives each instance the official verdict and lists, naming why where a test sits elsewhere', async () => {
      const ids = (await readdir(model)).sort();
      expect(ids.length).toBeGreaterThanOrEqual(9);
      const graded = await runGrade({ dataset, logs: run, out: join(dir, 'out') });
      expect([...graded.results.keys()].sort()).toEqual(ids);
      const moved: string[] = [];
      for (const id of ids) {
        const official = await entryOf(join(model, id, 'report.json'), id);
        const ours = await entryOf(join(dir, 'out/instances', id, 'report.json'), id);
        const result = graded.results.get(id);
        expect(result?.status, id).toBe(official.resolved ? 'resolved' : 'unresolved');
        expect(result?.official, id).toMatchObject({
          resolved: official.resolved,
          agrees: true,
          reasons: [],
        });
        for (const list of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const)
          for (const side of ['success', 'failure'] as const) {
            const named = (result?.official?.tests?.differences ?? []).filter((d) => d.list === list);
            const expected = official.tests_status[list][side].filter((t) => !named.some((d) => d.id === t));
            const got = ours.tests_status[list][side].filter((t) => !named.some((d) => d.id === t));
            expect(got.sort(), `${id} ${list} ${side}`).toEqual(expected.sort());
          }
        for (const difference of result?.official?.tests?.differences ?? []) {
          expect(difference.why, `${id} ${difference.id}`).not.toMatch(/^unexplained/);
          moved.push(`${id}: ${difference.id}`);
        }
      }
      // the tests sandkit puts elsewhere: each passed, on the line an erroring subtest left open
      expect(moved).toEqual([
        'django__django-11001: test_order_of_operations (expressions.tests.BasicExpressionsTests)',
        'django__django-12308: test_label_for_field (admin_utils.tests.UtilsTests)',
      ]);
      expect(graded.results.get('django__django-11001')?.official?.tests?.differences).toEqual([
        expect.objectContaining({
          list: 'FAIL_TO_PASS',
          official: 'failure',
          sandkit: 'success',
          why: expect.stringMatching(
            /^the log line "test_order_by_multiline_sql \(expressions\.tests\.BasicExpressionsTests\) \.\.\. test_order_of_operations .*\.\.\. ok" holds two tests: .*parse_log_django reads the whole line as one id/,
          ),
        }),
      ]);
      expect(graded.disagreements).toEqual([]);
    });
  });
});

describe('sandkit grade', () => {
  describe('when --logs is a public official run', () => {
    it('says it agrees on every verdict and on all lists but two instances', async () => {
      const out = join(dir, 'cli');
      const cli = await runCli(['grade', '--dataset', dataset, '--logs', run, '--out', out]);
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      const count = (await readdir(model)).length;
      expect(cli.stdout).toContain(
        `Official report.json beside ${count} log(s): sandkit agrees on ${count}, differs on 0. Test by test (${count} report(s) list them): the same FAIL_TO_PASS / PASS_TO_PASS success and failure lists on ${count - 2}, other lists on 2.`,
      );
      expect(cli.stdout).toMatch(
        /\| django__django-11001 \| unresolved \| 1\/2 \|.*\| agrees \(unresolved\); 1 test\(s\) in other lists: test_order_of_operations \(expressions\.tests\.BasicExpressionsTests\) \(official failure, sandkit success\) \|/,
      );
    }, 60_000);
  });
});
