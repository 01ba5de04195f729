import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { miniInstances, miniWrongPredictions, runCli, tempDir } from '../eval/eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('example'));
});
afterAll(() => cleanup());

describe('sandkit eval --example', () => {
  describe('when run on the embedded dataset', () => {
    it('builds its repositories into the cache, grades gold then the wrong predictions, prints both summaries, and replaces its own earlier run', async () => {
      const out = join(dir, 'out');
      const cache = join(dir, 'cache');
      const args = ['eval', '--example', '--out', out, '--cache-dir', cache, '--workers', '2'];
      const first = await runCli(args);
      expect(first.stderr).not.toMatch(/sandkit eval:/);
      expect(first.code).toBe(0);
      const [gold, wrong] = first.stdout.split('## Model-like predictions').map((part) => part ?? '');
      expect(gold).toContain(`## Gold patches (expected: 6 of 6 resolved): ${join(out, 'gold')}`);
      expect(gold).toContain('Resolved: 6 of 6');
      expect(wrong).toContain(join(out, 'wrong'));
      expect(wrong).toContain('Resolved: 3 of 6');
      for (const [id, status] of [
        ['pager-1', 'resolved'],
        ['pager-2', 'resolved'],
        ['durations-1', 'unresolved'],
        ['durations-2', 'resolved'],
        ['ledger-1', 'unresolved'],
        ['ledger-2', 'empty_patch'],
      ])
        expect(wrong).toMatch(new RegExp(`\\| sandkit-mini__${id} \\| ${status} \\|`));
      expect(existsSync(join(cache, 'swebench-mini', 'sandkit-mini__pager', '.git'))).toBe(true);
      const report = JSON.parse(await readFile(join(out, 'wrong', 'run_report.json'), 'utf8'));
      expect(report.resolved_ids).toEqual([
        'sandkit-mini__durations-2',
        'sandkit-mini__pager-1',
        'sandkit-mini__pager-2',
      ]);
      // the official chain's last step applied it; the strict policy refuses it
      expect(wrong).toMatch(/\| sandkit-mini__pager-1 \| resolved \| 2\/2 \| 6\/6 \| patch --fuzz=5 \|/);

      const again = await runCli(args);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Resolved: 6 of 6');

      // the explicit form --example prints for options of its own runs, as printed, on its mirrors
      const clash = await runCli([
        'eval',
        '--example',
        '--cache-dir',
        cache,
        '--schedule',
        'longest-first',
        '--durations',
        join(out, 'gold', 'results.jsonl'),
      ]);
      expect(clash.code).toBe(2);
      const command = /^ {2}sandkit eval (--dataset .*) --out <dir> <your options>$/m.exec(clash.stderr)?.[1];
      expect(command).toBe(
        `--dataset ${miniInstances} --predictions ${miniWrongPredictions} --repos ${join(cache, 'swebench-mini')}`,
      );
      const own = await runCli([
        'eval',
        ...(command as string).split(' '),
        '--out',
        join(dir, 'own-options'),
        '--schedule',
        'longest-first',
        '--durations',
        join(out, 'gold', 'results.jsonl'),
        '--instance-ids',
        'sandkit-mini__pager-1',
      ]);
      expect(own.stderr).not.toMatch(/sandkit eval:/);
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(/\| sandkit-mini__pager-1 \| resolved \| 2\/2 \| 6\/6 \| patch --fuzz=5 \|/);
    }, 300_000);
  });

  describe('when the choice of dataset is wrong', () => {
    it.each([
      [
        ['eval', '--example', '--gold'],
        '--example runs the embedded dataset with its own predictions: drop --gold',
      ],
      [
        ['eval', '--example', '--dataset', 'x.jsonl', '--resume'],
        '--example runs the embedded dataset with its own predictions: drop --dataset, --resume',
      ],
      [
        ['eval', '--example', '--schedule', 'longest-first', '--durations', 'r.jsonl'],
        '--example runs the embedded dataset with its own predictions: drop --schedule, --durations',
      ],
      [['eval'], 'give --dataset <file> (your instances) or --example (the embedded dataset)'],
    ])('exits 2 for %j and says what to change', async (args, message) => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`sandkit eval: ${message}`);
    });

    it('says how to run the embedded dataset with your own options, with the paths of this installation', async () => {
      const cacheHome = join(dir, 'xdg-cache');
      const run = await runCli(['eval', '--example', '--durations', 'r.jsonl'], {
        XDG_CACHE_HOME: cacheHome,
      });
      expect(run.code).toBe(2);
      const mirrors = join(cacheHome, 'sandkit', 'mirrors', 'swebench-mini');
      expect(run.stderr).toBe(
        [
          'sandkit eval: --example runs the embedded dataset with its own predictions: drop --durations.',
          `To run the embedded dataset with your own options, run sandkit eval --example once (it builds its repositories into ${mirrors}), then:`,
          `  sandkit eval --dataset ${miniInstances} --predictions ${miniWrongPredictions} --repos ${mirrors} --out <dir> <your options>`,
          '(--gold instead of --predictions grades its gold patches)',
          '',
        ].join('\n'),
      );
      expect(existsSync(cacheHome)).toBe(false);
    });

    it('exits 2 without touching an --out whose gold/ is not an earlier run', async () => {
      const out = join(dir, 'foreign');
      await mkdir(join(out, 'gold'), { recursive: true });
      await writeFile(join(out, 'gold', 'keep.txt'), 'mine');
      const run = await runCli(['eval', '--example', '--out', out, '--cache-dir', join(dir, 'cache2')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${join(out, 'gold')} exists and holds no sandkit eval results`);
      expect(await readFile(join(out, 'gold', 'keep.txt'), 'utf8')).toBe('mine');
    });
  });
});
