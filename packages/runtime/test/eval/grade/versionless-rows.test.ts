/** Rows of a known repository without a table row of their own (no version, or their own test_cmd) are graded by repository. */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrade } from '../../../src/eval/grade/run-grade.js';
import { repoRoot, readJsonl, tempDir, writeJsonl } from '../eval-test-helpers.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
/** Real official runs: a public one (django, pylint) and the one made here (pytest path parameters, cut ids). */
const runs = [
  {
    dataset: 'dataset-public-lite-37.jsonl',
    model: 'logs/run_evaluation/public-lite-37/glm-5.3-zcode-campaign',
  },
  { dataset: 'dataset.jsonl', model: 'logs/run_evaluation/fixture-run/model-a' },
];

let dir: string;
let cleanup: () => Promise<void>;
let logs: string;
let rows: Array<Record<string, unknown>>;
/** Instance id → the directory of its official log and report.json. */
const logOf = new Map<string, string>();
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('versionless'));
  logs = join(dir, 'logs/run/model');
  rows = [];
  for (const run of runs) {
    for (const row of await readJsonl(join(fixtures, run.dataset))) {
      const id = String(row.instance_id);
      rows.push(row);
      logOf.set(id, join(fixtures, run.model, id));
      await cp(join(fixtures, run.model, id), join(logs, id), { recursive: true });
    }
  }
});
afterAll(() => cleanup());

const officialResolved = async (id: string): Promise<boolean> =>
  JSON.parse(await readFile(join(logOf.get(id)!, 'report.json'), 'utf8'))[id].resolved;

async function gradeAs(name: string, change: (row: Record<string, unknown>) => Record<string, unknown>) {
  const dataset = join(dir, `${name}.jsonl`);
  await writeJsonl(dataset, rows.map(change));
  return runGrade({ dataset, logs: join(dir, 'logs'), out: join(dir, `${name}-out`) });
}

describe('runGrade', () => {
  describe.each([
    [
      'has no version',
      ({ version: _, ...row }: Record<string, unknown>) => ({ ...row, test_cmd: 'run the tests' }),
    ],
    [
      'has an unknown version',
      (row: Record<string, unknown>) => ({ ...row, version: '99.9', test_cmd: 'run the tests' }),
    ],
  ])('when a row of a known repository %s and its own test_cmd', (name, change) => {
    it('grades it with the repository parser and id form: django, pylint (path parameters), requests (path parameters), sphinx (cut ids) agree with the official verdict', async () => {
      const graded = await gradeAs(name.replaceAll(' ', '-'), change);
      expect(graded.results.size).toBe(rows.length);
      for (const row of rows) {
        const id = String(row.instance_id);
        const result = graded.results.get(id);
        if (id === 'pytest-dev__pytest-90004' || id === 'pallets__flask-90003') continue; // known differences (README)
        expect(result?.status, id).toBe((await officialResolved(id)) ? 'resolved' : 'unresolved');
        expect(result?.official?.agrees, id).toBe(true);
      }
    }, 60_000);
  });
});
