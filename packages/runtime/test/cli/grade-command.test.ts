import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from '../eval/eval-test-helpers.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
const dataset = join(fixtures, 'dataset.jsonl');
const logs = join(fixtures, 'logs/run_evaluation/fixture-run');

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('grade-cli'));
});
afterAll(() => cleanup());

describe('sandkit grade', () => {
  describe('when --out holds an earlier run', () => {
    it('exits 2 writing nothing and says how to fix it; with --overwrite it replaces only the earlier outputs', async () => {
      const out = join(dir, 'earlier');
      // an earlier run of 48 instances; grading 5 into it must not leave 53 instances/ dirs
      for (let n = 0; n < 48; n++)
        await mkdir(join(out, 'instances', `earlier__run-${n}`), { recursive: true });
      await writeFile(join(out, 'results.jsonl'), '{"instance_id":"earlier__run-0"}\n');
      await writeFile(join(out, 'run_report.json'), '{}\n');
      await writeFile(join(out, 'summary.md'), '# earlier\n');
      await writeFile(join(out, 'notes.txt'), 'mine');
      const args = ['grade', '--dataset', dataset, '--logs', logs, '--out', out, '--jobs', '1'];

      const refused = await runCli(args);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `sandkit grade: --out ${out} already holds an earlier run's outputs (instances/, results.jsonl, run_report.json, summary.md); grading into it would mix the two runs: give a new --out, or pass --overwrite to remove instances/, results.jsonl, run_report.json and summary.md there first\n`,
      );
      expect(await readdir(join(out, 'instances'))).toHaveLength(48);
      expect(await readFile(join(out, 'summary.md'), 'utf8')).toBe('# earlier\n');

      const replaced = await runCli([...args, '--overwrite']);
      expect(replaced.stderr).toBe('');
      expect(replaced.code).toBe(0);
      expect(replaced.stdout).toMatch(/# sandkit grade summary/);
      expect(await readdir(join(out, 'instances'))).toHaveLength(5);
      const results = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n');
      expect(results).toHaveLength(5);
      expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    }, 60_000);
  });

  describe('when asked for --help', () => {
    it('documents --overwrite, the patch column and which of two logs of one instance wins', async () => {
      const help = await runCli(['grade', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/--overwrite +remove an earlier run's instances\/, results.jsonl,/);
      expect(help.stdout).toMatch(
        /"patch applied with" column is filled only from sandkit eval's own report.json/,
      );
      expect(help.stdout).toMatch(/the\s+first by path is graded \(gold\/ before wrong\/\)/);
    });
  });
});
