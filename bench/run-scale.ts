/**
 * run-scale: `sandkit run` at scale. 200 instances (the scale simulation's synthetic dataset, with
 * a problem statement added) × 20 model calls each, through the real Anthropic provider against
 * the model stand-in, which answers every request after a seeded 1–3 s (the model's think time),
 * 19 times with an `exec` tool call and then with a final text. `--workers 100` on the scale
 * simulation's latency-injecting adapter (`createSimulatedVendorAdapter` with the issue-12 vendor
 * profile over real local sandboxes: create 150–900 ms, +20–80 ms per call, 1 % failed creates,
 * 0.5 % expiries mid-run, quota 100).
 *
 * Baseline, computed in the same run from the same seeded draws: the ideal wall time, i.e. the
 * instances' model time (the sum of their 20 delays) plus the vendor's median create time,
 * scheduled in dataset order on 100 workers, each instance to the first free one, as if sandkit,
 * the sandboxes and the tools cost nothing.
 *
 * Goals: wall ≤ 1.15 × ideal; 0 lost (every instance in preds.json with a final status), 0
 * double-counted (each id once), 0 leaked sandboxes (the vendor's live set empty after its
 * teardowns); host RSS growth ≤ 8 MiB per running instance (peak RSS over the run minus RSS before
 * it, divided by the most instances running at once).
 *
 * Run: `pnpm tsx bench/run-scale.ts [--instances 200] [--steps 20] [--workers 100] [--seed 1]
 *   [--min-ms 1000] [--max-ms 3000]`
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { resolveModel } from '../packages/runtime/src/run/model/resolve-model.js';
import { runAgentBenchmark } from '../packages/runtime/src/run/run-agent-benchmark.js';
import type { StandInScript } from '../packages/runtime/src/run/stand-in/stand-in-types.js';
import { startModelStandIn } from '../packages/runtime/src/run/stand-in/start-model-stand-in.js';
import { seededStream, uniformBetween } from '../packages/runtime/test/support/seeded-random.js';
import {
  createSimulatedVendorAdapter,
  defaultVendorProfile,
} from '../packages/runtime/test/support/simulated-vendor-adapter.js';
import { buildSyntheticDataset } from '../packages/runtime/test/support/synthetic-dataset.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '200' },
    steps: { type: 'string', default: '20' },
    workers: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    'min-ms': { type: 'string', default: '1000' },
    'max-ms': { type: 'string', default: '3000' },
  },
});
const instances = Number(values.instances);
const steps = Number(values.steps);
const workers = Number(values.workers);
const seed = Number(values.seed);
const minMs = Number(values['min-ms']);
const maxMs = Number(values['max-ms']);
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const work = mkdtempSync(join(tmpdir(), 'bench-run-scale-'));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The think time of call `turn` (0-based) of instance number `index`, in ms. */
const delayMs = (index: number, turn: number): number =>
  uniformBetween(seededStream(seed + 1000 * turn, index), minMs, maxMs);

try {
  const synthetic = buildSyntheticDataset(work, {
    instances,
    seed,
    testSeconds: { min: 0, max: 0 },
  });
  const rows = readFileSync(synthetic.dataset, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const dataset = join(work, 'agent.jsonl');
  writeFileSync(
    dataset,
    rows
      .map((row) =>
        JSON.stringify({ ...row, problem_statement: `clamp() is wrong [${String(row.instance_id)}]` }),
      )
      .join('\n'),
  );
  const indexOf = new Map(synthetic.instanceIds.map((id, i) => [id, i]));
  const script: StandInScript = async (turn) => {
    const prompt = turn.messages.find((m) => m.role === 'user')?.text ?? '';
    const id = /\[(sim__calc-\d+)\]/.exec(prompt)?.[1] ?? '';
    const index = indexOf.get(id) ?? -1;
    const call = turn.messages.filter((m) => m.role === 'assistant').length;
    await sleep(delayMs(index, call));
    if (call + 1 >= steps) return { type: 'text', text: 'done' };
    return { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'echo step' } }] };
  };
  const standIn = await startModelStandIn({ script });
  const vendor = createSimulatedVendorAdapter({
    inner: createLocalSandboxAdapter({ root: join(work, 'sandboxes') }),
    seed,
    quota: workers,
    ...defaultVendorProfile,
  });
  const { model } = resolveModel('anthropic:stand-in', { baseURL: standIn.baseURL, apiKey: 'x', env: {} });

  // the ideal: model time + the vendor's median create, list-scheduled in dataset order
  const free = Array.from({ length: workers }, () => 0);
  for (let i = 0; i < instances; i++) {
    let think = defaultVendorProfile.createMs.median;
    for (let t = 0; t < steps; t++) think += delayMs(i, t);
    const slot = free.indexOf(Math.min(...free));
    free[slot] = (free[slot] as number) + think;
  }
  const idealMs = Math.max(...free);

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 250);
  let running = 0;
  let peakRunning = 0;
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const started = performance.now();
  const run = await runAgentBenchmark({
    dataset,
    reposDir: synthetic.reposDir,
    cacheDir: join(work, 'cache'),
    out: join(work, 'out'),
    adapter: vendor,
    model,
    modelName: 'anthropic:stand-in',
    stepLimit: steps + 5,
    workers,
    maxSandboxes: workers,
    instanceTimeoutSeconds: 600,
    onInstanceStart: () => {
      running += 1;
      peakRunning = Math.max(peakRunning, running);
    },
    onInstanceDone: () => {
      running -= 1;
    },
  });
  const wallMs = performance.now() - started;
  loopDelay.disable();
  clearInterval(sampler);
  await standIn.close();
  await vendor.settled();

  const preds = JSON.parse(readFileSync(join(run.out, 'preds.json'), 'utf8')) as Record<string, unknown>;
  const ids = Object.keys(preds);
  const lost = synthetic.instanceIds.filter((id) => !run.trajectories.has(id) || !(id in preds)).length;
  const doubled = ids.length - new Set(ids).size + (run.record.finished - new Set(ids).size);
  const stats = vendor.stats();
  const statuses = run.record.status_counts;
  const retried = [...run.trajectories.values()].filter((t) => t.attempts.length > 0).length;
  console.log(
    `run-scale: ${instances} instances × ${steps} model calls (${minMs}–${maxMs} ms each), --workers ${workers}, simulated vendor (seed ${seed}); load ${loadavg()[0]?.toFixed(1)}, node ${process.version}`,
  );
  console.log(
    `  wall ${(wallMs / 1000).toFixed(1)} s vs ideal ${(idealMs / 1000).toFixed(1)} s: ${(wallMs / idealMs).toFixed(3)}× (goal ≤ 1.15×)`,
  );
  console.log(
    `  statuses ${JSON.stringify(Object.fromEntries(Object.entries(statuses).filter(([, n]) => n > 0)))}; lost ${lost}, double-counted ${doubled}, leaked sandboxes ${stats.liveSandboxIds.length}; sandbox retries ${retried} (vendor: ${stats.failedCreates} failed creates, ${stats.expired} expiries, ${stats.created} created)`,
  );
  const toolMs = [...run.trajectories.values()].flatMap((t) =>
    t.steps.flatMap((s) => s.tool_calls.map((c) => c.duration_ms ?? 0)),
  );
  console.log(
    `  event-loop delay p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms; exec tool median ${[...toolMs].sort((a, b) => a - b)[Math.floor(toolMs.length / 2)]?.toFixed(0)} ms`,
  );
  console.log(
    `  host RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB, ${peakRunning} running at most: ${((rssPeak - rssBefore) / 2 ** 20 / peakRunning).toFixed(2)} MiB per running instance (goal ≤ 8); model requests ${standIn.requests()}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
