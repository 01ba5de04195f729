/**
 * eval-overhead, in-place mode: per instance, the harness's own wall time (`runEval` with
 * `--sandbox docker` on the stand-in official images: everything after the sandbox is acquired,
 * i.e. building the script, one writeFile, one exec, parsing, grading, reports) against the bare
 * evaluation script in the same kind of container (a fresh container of the same image, the same
 * `eval.sh` the harness wrote, written and run through the same adapter), alternating in the same
 * run. Container creation is left out of both (it is the engine's, not the harness's).
 * Goal: harness ≤ 1.05 × bare + 0.2 s per instance.
 *
 * Needs DOCKER_HOST and the stand-in images (built here when missing).
 * Run: `DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/eval-overhead.ts [repetitions=3]`
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweBenchInstanceSchema } from '../packages/runtime/src/eval/load/swe-bench-instance.js';
import { runEval } from '../packages/runtime/src/eval/run-eval.js';
import {
  instanceImageName,
  officialImageNaming,
} from '../packages/runtime/src/eval/sandbox/official-image.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { buildStandInImages } from '../scripts/build-stand-in-images.js';

const repetitions = Number(process.argv[2] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'bench-eval-overhead-'));
const dataset = join(import.meta.dirname, '../packages/runtime/datasets/swebench-mini/instances.jsonl');
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  const instances = readFileSync(dataset, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => sweBenchInstanceSchema.parse(JSON.parse(line)));
  buildStandInImages({ instances });
  const rows: string[] = [];
  let worst = 0;
  for (const instance of instances) {
    const harness: number[] = [];
    const bare: number[] = [];
    const adapter = createDockerSandboxAdapter({ image: instanceImageName(instance, officialImageNaming) });
    for (let r = 0; r < repetitions; r++) {
      const out = join(work, `out-${instance.instance_id}-${r}`);
      const run = await runEval({
        dataset,
        gold: true,
        out,
        sandbox: 'docker',
        instanceIds: [instance.instance_id],
        workers: 1,
        durationsCache: false,
      });
      const result = run.results.get(instance.instance_id);
      if (result?.status !== 'resolved')
        throw new Error(`${instance.instance_id}: ${result?.status} ${result?.error ?? ''}`);
      const log = readFileSync(join(out, 'instances', instance.instance_id, 'eval.log'), 'utf8');
      const acquired = Number(/acquired in (\d+) ms/.exec(log)?.[1] ?? Number.NaN);
      harness.push(result.duration_ms - acquired);

      const script = readFileSync(join(out, 'instances', instance.instance_id, 'eval.sh'), 'utf8');
      const sandbox = await adapter.create();
      try {
        const started = performance.now();
        await sandbox.client.writeFile(`${sandbox.workdir}/.sandkit-eval/eval.sh`, script);
        const exec = await sandbox.client.exec(`bash ${sandbox.workdir}/.sandkit-eval/eval.sh`, {
          maxOutputBytes: 64 * 1024 * 1024,
        });
        bare.push(performance.now() - started);
        if (exec.exitCode !== 0)
          throw new Error(`${instance.instance_id}: bare script exit ${exec.exitCode}`);
      } finally {
        await sandbox.destroy();
      }
    }
    const h = median(harness);
    const b = median(bare);
    const budget = 1.05 * b + 200;
    worst = Math.max(worst, h / budget);
    rows.push(
      `| ${instance.instance_id} | ${(b / 1000).toFixed(2)} | ${(h / 1000).toFixed(2)} | ${(h / b).toFixed(2)}× | ${((h - b) / 1000).toFixed(2)} s | ${h <= budget ? 'yes' : 'no'} |`,
    );
  }
  process.stdout.write(
    [
      `eval-overhead (in place, docker, stand-in official images): median of ${repetitions} runs per instance, workers 1`,
      '| instance | bare eval script (s) | harness after acquire (s) | ratio | harness − bare | within 1.05× + 0.2 s |',
      '|---|---:|---:|---:|---:|---|',
      ...rows,
      `worst harness / (1.05 × bare + 0.2 s) = ${worst.toFixed(2)} (goal ≤ 1.00); 1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
