/**
 * eval-scale: the embedded dataset copied N times (default 10 → 60 instances), graded with the
 * gold patches by `runEval` with `--workers 1` and then `--workers 2`, local sandboxes, same run.
 * Prints instances per minute for each and the ratio. Goal: workers 2 ≥ 1.7 × workers 1.
 *
 * Run: `pnpm tsx bench/eval-scale.ts [copies=10]`
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEval } from '../packages/runtime/src/eval/run-eval.js';
import { buildExampleRepos as buildMiniRepos } from '../packages/runtime/src/example-dataset/build-example-repos.js';

const copies = Number(process.argv[2] ?? 10);
const work = mkdtempSync(join(tmpdir(), 'bench-eval-scale-'));

try {
  const mirrors = join(work, 'mirrors');
  buildMiniRepos(mirrors);
  const lines = readFileSync(
    join(import.meta.dirname, '../packages/runtime/datasets/swebench-mini/instances.jsonl'),
    'utf8',
  )
    .split('\n')
    .filter((line) => line.trim() !== '');
  const dataset = join(work, 'dataset.jsonl');
  const records = Array.from({ length: copies }, (_, copy) =>
    lines.map((line) => {
      const instance = JSON.parse(line) as { instance_id: string };
      return JSON.stringify({ ...instance, instance_id: `${instance.instance_id}-copy${copy}` });
    }),
  ).flat();
  writeFileSync(dataset, `${records.join('\n')}\n`);

  const perMinute: number[] = [];
  for (const workers of [1, 2]) {
    const load = loadavg()[0]?.toFixed(1);
    const started = performance.now();
    const run = await runEval({
      dataset,
      gold: true,
      out: join(work, `out-${workers}`),
      reposDir: mirrors,
      cacheDir: join(work, 'cache'),
      workers,
      // both rows in the dataset's order, and the user's durations cache left alone
      durationsCache: false,
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.report.resolved_instances !== records.length) {
      throw new Error(`workers ${workers}: ${run.report.resolved_instances} of ${records.length} resolved`);
    }
    perMinute.push((records.length / seconds) * 60);
    process.stdout.write(
      `workers ${workers}: ${records.length} instances in ${seconds.toFixed(1)} s = ${perMinute.at(-1)?.toFixed(1)} instances/min (1-min load average at start ${load})\n`,
    );
  }
  const ratio = (perMinute[1] ?? 0) / (perMinute[0] ?? 1);
  process.stdout.write(`throughput workers 2 / workers 1 = ${ratio.toFixed(2)}× (goal ≥ 1.7×)\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
