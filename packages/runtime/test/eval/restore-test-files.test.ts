import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, readJsonl, tempDir, writeJsonl } from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('restore'));
});
afterAll(() => cleanup());

// edits the test file instead of the code: parse_amount is replaced inside the tests
const cheatingPatch = [
  'diff --git a/tests/test_money.py b/tests/test_money.py',
  '--- a/tests/test_money.py',
  '+++ b/tests/test_money.py',
  '@@ -1,6 +1,8 @@',
  ' import unittest',
  ' ',
  '-from ledger import format_amount, parse_amount',
  '+from ledger import format_amount',
  '+',
  '+parse_amount = lambda text: round(float(text) * 100)',
  ' ',
  ' ',
  ' class ParseAmountTest(unittest.TestCase):',
  '',
].join('\n');

describe('runEval', () => {
  describe('when the model patch edits the files the test patch touches', () => {
    it('restores them to base_commit before the test patch, so the edit cannot make the tests pass', async () => {
      const mirrors = join(dir, 'mirrors');
      buildMirrors(mirrors);
      const predictions = join(dir, 'predictions.jsonl');
      await writeJsonl(predictions, [
        { instance_id: 'sandkit-mini__ledger-2', model_name_or_path: 'cheater', model_patch: cheatingPatch },
      ]);
      const out = join(dir, 'out');
      const run = await runEval({
        dataset: miniInstances,
        predictions,
        out,
        reposDir: mirrors,
        cacheDir: join(dir, 'cache'),
        instanceIds: ['sandkit-mini__ledger-2'],
        workers: 1,
      });
      expect(run.results.get('sandkit-mini__ledger-2')).toMatchObject({
        status: 'unresolved',
        patch_method: 'git apply',
      });
      // the official evaluation script: reset the test files, apply the test patch, test, reset again
      const base = (await readJsonl(miniInstances)).find(
        (i) => i.instance_id === 'sandkit-mini__ledger-2',
      )?.base_commit;
      const script = await readFile(join(out, 'instances/sandkit-mini__ledger-2/eval.sh'), 'utf8');
      expect(script.split(`checkout ${base} tests/test_money.py`)).toHaveLength(4);
      const output = await readFile(join(out, 'instances/sandkit-mini__ledger-2/test_output.txt'), 'utf8');
      expect(output).toMatch(
        /Updated 1 path from [0-9a-f]+\n[\s\S]*>>>>> Start Test Output[\s\S]*>>>>> End Test Output/,
      );
      const dataset = await readJsonl(miniInstances);
      const f2p = JSON.parse(
        String(dataset.find((i) => i.instance_id === 'sandkit-mini__ledger-2')?.FAIL_TO_PASS),
      );
      const report = JSON.parse(
        await readFile(join(out, 'instances/sandkit-mini__ledger-2/report.json'), 'utf8'),
      );
      expect(report['sandkit-mini__ledger-2'].tests_status.FAIL_TO_PASS.failure).toEqual(f2p);
    }, 120_000);
  });
});
