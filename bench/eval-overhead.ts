/**
 * eval-overhead: per-instance wall time of the harness (`runEval`, one instance: sandbox, checkout,
 * both patches, tests, parsing, reports) against running the same instance's test command directly
 * in a sandbox prepared the same way (checked out, gold and test patches applied), in the same run.
 * Goal: harness ≤ 1.05 × direct + 0.2 s.
 *
 * Run: `pnpm tsx bench/eval-overhead.ts [repetitions=3]`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMiniRepos } from '../examples/swebench-mini/build-repos.js';
import { patchPaths, splitPatch } from '../packages/runtime/src/eval/instance/patch-files.js';
import { defaultTestCommand } from '../packages/runtime/src/eval/instance/test-command.js';
import { frameworkOf, sweBenchInstanceSchema } from '../packages/runtime/src/eval/load/swe-bench-instance.js';
import { runEval } from '../packages/runtime/src/eval/run-eval.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const repetitions = Number(process.argv[2] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'bench-eval-overhead-'));
const dataset = join(import.meta.dirname, '../examples/swebench-mini/instances.jsonl');
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  const mirrors = join(work, 'mirrors');
  buildMiniRepos(mirrors);
  const instances = readFileSync(dataset, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => sweBenchInstanceSchema.parse(JSON.parse(line)));
  const adapter = createLocalSandboxAdapter();
  const rows: string[] = [];
  let worst = 0;
  for (const instance of instances) {
    const harness: number[] = [];
    const direct: number[] = [];
    const ownTests: number[] = [];
    for (let r = 0; r < repetitions; r++) {
      const run = await runEval({
        dataset,
        gold: true,
        out: join(work, `out-${instance.instance_id}-${r}`),
        reposDir: mirrors,
        cacheDir: join(work, 'cache'),
        instanceIds: [instance.instance_id],
        workers: 1,
      });
      const result = run.results.get(instance.instance_id);
      if (result?.status !== 'resolved')
        throw new Error(`${instance.instance_id}: ${result?.status} ${result?.error ?? ''}`);
      harness.push(result.duration_ms);
      const log = readFileSync(join(run.out, 'instances', instance.instance_id, 'eval.log'), 'utf8');
      ownTests.push(Number(/tests: exit 0 in (\d+) ms/.exec(log)?.[1] ?? Number.NaN));

      const sandbox = await adapter.create();
      try {
        const repo = join(sandbox.workdir, 'repo');
        const key = instance.repo.replace('/', '__');
        execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', join(mirrors, key), repo]);
        execFileSync('git', ['-C', repo, 'checkout', '-q', '--detach', instance.base_commit]);
        for (const [name, patch] of [
          ['gold', instance.patch],
          ['test', instance.test_patch],
        ] as const) {
          writeFileSync(join(sandbox.workdir, `${name}.patch`), patch);
          execFileSync('git', ['-C', repo, 'apply', join(sandbox.workdir, `${name}.patch`)]);
        }
        const command =
          instance.test_cmd ??
          defaultTestCommand(frameworkOf(instance), patchPaths(splitPatch(instance.test_patch).files));
        const started = performance.now();
        const exec = await sandbox.client.exec(`{ ${command}\n} 2>&1`, {
          cwd: repo,
        });
        direct.push(performance.now() - started);
        if (exec.exitCode !== 0) throw new Error(`${instance.instance_id}: direct run exit ${exec.exitCode}`);
      } finally {
        await sandbox.destroy();
      }
    }
    const h = median(harness);
    const d = median(direct);
    const budget = 1.05 * d + 200;
    worst = Math.max(worst, h / budget);
    const own = median(harness.map((value, i) => value - (ownTests[i] ?? Number.NaN)));
    rows.push(
      `| ${instance.instance_id} | ${(d / 1000).toFixed(2)} | ${(h / 1000).toFixed(2)} | ${(h / d).toFixed(2)}× | ${((h - d) / 1000).toFixed(2)} s | ${(own / 1000).toFixed(2)} s | ${h <= budget ? 'yes' : 'no'} |`,
    );
  }
  process.stdout.write(
    [
      `eval-overhead: median of ${repetitions} runs per instance, local sandbox, workers 1`,
      '| instance | direct test command (s) | harness per instance (s) | ratio | harness − direct | harness − its own test command | within 1.05× + 0.2 s |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...rows,
      `worst harness / (1.05 × direct + 0.2 s) = ${worst.toFixed(2)} (goal ≤ 1.00); 1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
