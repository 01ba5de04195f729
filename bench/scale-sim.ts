/**
 * scale-sim (issue 12, item 4): N synthetic instances (default 500) graded by the real harness
 * (`runEval`, the code path of `sandkit eval`) and the pooled provider, on a simulated vendor: the
 * local adapter behind `createSimulatedVendorAdapter` (create 150–900 ms log-normal, +20–80 ms per
 * call, a concurrency quota, 1% failed creates, 0.5% sandboxes expiring mid-run; seeded). Each
 * instance is `python3 -m unittest` on a tiny repository after a seeded 2–6 s `sleep` standing for
 * the test time a vendor's machine would spend (it costs the host no CPU).
 *
 * Per worker count it prints one Markdown row: wall against the ideal (the sum of the instance
 * times divided by the concurrency min(workers, quota)), the share of quota·wall the vendor's slots
 * were held, host RSS and fds per concurrent sandbox, event-loop delay, retries, infrastructure
 * errors, and the checks: no instance lost or counted twice, no sandbox left alive (exit 1 if any).
 *
 * An instance's time is its `duration_ms` minus the time its acquire waited for a free quota slot
 * (acquire time in its eval.log minus its sandbox's own create time at the vendor), so that rows
 * with more workers than the quota are not credited with queueing. For an instance run again
 * after its sandbox expired, only the last attempt's time counts (the ideal is understated).
 *
 * Run: `pnpm tsx bench/scale-sim.ts [--instances 500] [--quota 100] [--workers 10,50,100,200]
 *   [--seed 1] [--test-seconds 2:6] [--max-sandboxes quota|double] [--creates-per-second N]
 *   [--json FILE] [--keep]`
 * (`--creates-per-second 5` adds E2B Pro's creation rate limit, refused with the same 429.
 * `--max-sandboxes double` keeps the harness default, 2 × workers, so the vendor refuses creates
 * past its quota and the pool's rate-limit retry carries the run.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import type { InstanceResult } from '../packages/runtime/src/eval/instance/eval-result.js';
import type { EvalProgress } from '../packages/runtime/src/eval/report/progress.js';
import { runEval } from '../packages/runtime/src/eval/run-eval.js';
import {
  createSimulatedVendorAdapter,
  defaultVendorProfile,
} from '../packages/runtime/test/support/simulated-vendor-adapter.js';
import { buildSyntheticDataset } from '../packages/runtime/test/support/synthetic-dataset.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '500' },
    quota: { type: 'string', default: '100' },
    workers: { type: 'string', default: '10,50,100,200' },
    seed: { type: 'string', default: '1' },
    'test-seconds': { type: 'string', default: '2:6' },
    'max-sandboxes': { type: 'string', default: 'quota' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'creates-per-second': { type: 'string', default: 'Infinity' },
  },
});
const instances = Number(values.instances);
const quota = Number(values.quota);
const seed = Number(values.seed);
const [testMin, testMax] = (values['test-seconds'] ?? '2:6').split(':').map(Number) as [number, number];
const workerCounts = (values.workers ?? '').split(',').map(Number);
const maxMode = values['max-sandboxes'];
const createsPerSecond = Number(values['creates-per-second']);
if (maxMode !== 'quota' && maxMode !== 'double') throw new Error('--max-sandboxes must be quota or double');

/** One row of the report. */
interface Row {
  workers: number;
  poolMax: number;
  wallS: number;
  idealS: number;
  sumInstanceS: number;
  busy: number;
  busyUntilDrain: number;
  peakLive: number;
  rssGrowthMiB: number;
  rssPerSandboxMiB: number;
  fdGrowth: number;
  fdsPerSandbox: number;
  loopDelayP99Ms: number;
  createCalls: number;
  rateLimited: number;
  failedCreates: number;
  expired: number;
  instanceRetries: number;
  infraErrors: number;
  resolved: number;
  lost: number;
  doubled: number;
  leaked: number;
  load: [number, number];
  /** The simulated vendor's local teardowns: queued at the end of the run, time to finish them after it, longest, total (ms). */
  teardown: { backlog: number; tailMs: number; maxMs: number; totalMs: number };
}

const lines0 = (out: string): InstanceResult[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as InstanceResult);
const fdCount = (): number => readdirSync('/proc/self/fd').length;
const gc = (globalThis as { gc?: () => void }).gc;

async function runOnce(workers: number, count = instances): Promise<Row> {
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-sim-'));
  try {
    const data = buildSyntheticDataset(work, {
      instances: count,
      seed,
      testSeconds: { min: testMin, max: testMax },
    });
    const sandboxRoot = join(work, 'sandboxes');
    const poolMax = maxMode === 'quota' ? quota : workers * 2;
    gc?.();
    const baseRss = process.memoryUsage().rss;
    const baseFds = fdCount();
    let peakRss = baseRss;
    let peakFds = baseFds;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      peakFds = Math.max(peakFds, fdCount());
    }, 50);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const load0 = loadavg()[0] ?? 0;
    const vendor = createSimulatedVendorAdapter({
      inner: createLocalSandboxAdapter({ root: sandboxRoot }),
      seed,
      quota,
      ...defaultVendorProfile,
      // one local teardown at a time: each reads all of /proc through libuv's 4 threads, and more
      // at once would starve the harness's own file writes, a cost no remote vendor puts on the host
      teardownConcurrency: 1,
      createsPerSecond,
    });
    const drainIndex = count - Math.min(workers, count) + 1;
    let finished = 0;
    let drainAt = 0;
    let slotMsAtDrain = 0;
    const started = performance.now();
    const progress: EvalProgress = {
      start() {},
      finished() {
        finished += 1;
        // from this finish on, a worker that finishes finds no instance left: the queue has drained
        if (finished === drainIndex) {
          drainAt = performance.now();
          slotMsAtDrain = vendor.stats().slotMs;
        }
      },
      notice() {},
      stop() {},
    };
    loop.enable();
    const run = await runEval({
      dataset: data.dataset,
      gold: true,
      out: join(work, 'out'),
      reposDir: data.reposDir,
      cacheDir: join(work, 'cache'),
      adapter: vendor,
      workers,
      maxSandboxes: poolMax,
      timeoutSeconds: 600,
      progress,
    });
    const wallMs = performance.now() - started;
    loop.disable();
    clearInterval(sampler);
    const teardownStarted = performance.now();
    const backlog = vendor.stats().teardownsPending;
    await vendor.settled();
    const teardownTailMs = performance.now() - teardownStarted;
    const stats = vendor.stats();
    const records = vendor.sandboxes();
    for (const line of lines0(run.out)) {
      if (line.status !== 'resolved')
        process.stderr.write(
          `  ${line.instance_id}: ${line.status} ${line.error_kind ?? ''} ${line.error_code ?? ''} ${(line.error ?? '').slice(0, 300)}\n`,
        );
    }

    const lines = lines0(run.out);
    const ids = new Set(lines.map((line) => line.instance_id));
    let sumInstanceMs = 0;
    for (const line of lines) {
      const log = readFileSync(join(run.out, 'instances', line.instance_id, 'eval.log'), 'utf8');
      const acquired = /^\[(\d+\.\d+)s\] sandbox (\S+) from /m.exec(log);
      const record = acquired ? records.get(acquired[2] ?? '') : undefined;
      const slotWaitMs =
        acquired && record ? Number(acquired[1]) * 1000 - (record.readyAt - record.requestedAt) : 0;
      sumInstanceMs += line.duration_ms - Math.max(0, slotWaitMs);
    }
    const concurrency = Math.min(workers, quota, poolMax);
    const leftDirs = readdirSync(sandboxRoot).length;
    return {
      workers,
      poolMax,
      wallS: wallMs / 1000,
      idealS: sumInstanceMs / concurrency / 1000,
      sumInstanceS: sumInstanceMs / 1000,
      busy: stats.slotMs / (quota * wallMs),
      busyUntilDrain: drainAt > 0 ? slotMsAtDrain / (quota * (drainAt - started)) : Number.NaN,
      peakLive: stats.peakLive,
      rssGrowthMiB: (peakRss - baseRss) / 2 ** 20,
      rssPerSandboxMiB: (peakRss - baseRss) / 2 ** 20 / Math.max(1, stats.peakLive),
      fdGrowth: peakFds - baseFds,
      fdsPerSandbox: (peakFds - baseFds) / Math.max(1, stats.peakLive),
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      createCalls: stats.createCalls,
      rateLimited: stats.rateLimited,
      failedCreates: stats.failedCreates,
      expired: stats.expired,
      instanceRetries: lines.reduce((sum, line) => sum + (line.infra_retries ?? 0), 0),
      infraErrors: run.report.infra_error_ids.length,
      resolved: run.report.resolved_instances,
      lost: data.instanceIds.filter((id) => !ids.has(id)).length,
      doubled: lines.length - ids.size,
      leaked: Math.max(stats.live, stats.liveSandboxIds.length, leftDirs),
      load: [load0, loadavg()[0] ?? 0],
      teardown: {
        backlog,
        tailMs: teardownTailMs,
        maxMs: stats.teardownMaxMs,
        totalMs: stats.teardownTotalMs,
      },
    };
  } finally {
    if (values.keep) process.stderr.write(`  kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

const pct = (x: number): string => (Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`);
const header =
  '| workers | pool max | wall s | ideal s | wall / ideal | quota busy | busy until drain | busy of min(workers, quota) | peak live | host RSS growth (per sandbox) | fds growth (per sandbox) | event-loop p99 | creates (rate-limited / failed) | expired | instance retries | infra errors | resolved | lost | double | leaked | load 1-min |';
const rule = `|${header
  .split('|')
  .slice(1, -1)
  .map(() => '---:')
  .join('|')}|`;
function format(row: Row): string {
  return `| ${row.workers} | ${row.poolMax} | ${row.wallS.toFixed(1)} | ${row.idealS.toFixed(1)} | ${(row.wallS / row.idealS).toFixed(3)}× | ${pct(row.busy)} | ${pct(row.busyUntilDrain)} | ${pct((row.busy * quota) / Math.min(row.workers, quota))} | ${row.peakLive} | ${row.rssGrowthMiB.toFixed(0)} MiB (${row.rssPerSandboxMiB.toFixed(2)}) | ${row.fdGrowth} (${row.fdsPerSandbox.toFixed(2)}) | ${row.loopDelayP99Ms.toFixed(0)} ms | ${row.createCalls} (${row.rateLimited} / ${row.failedCreates}) | ${row.expired} | ${row.instanceRetries} | ${row.infraErrors} | ${row.resolved} | ${row.lost} | ${row.doubled} | ${row.leaked} | ${row.load[0].toFixed(1)} → ${row.load[1].toFixed(1)} |`;
}

process.stdout.write(
  `scale-sim: ${instances} instances, quota ${quota}, ${createsPerSecond} creates/s, pool max ${maxMode === 'quota' ? 'the quota' : '2 × workers'}, seed ${seed}, test time ${testMin}–${testMax} s, ${new Date().toISOString()}, Node ${process.version}\n\n${header}\n${rule}\n`,
);
// warm-up, not reported: module loading and JIT would otherwise count as the first row's RSS growth
await runOnce(Math.min(10, quota), Math.min(20, instances));
const rows: Row[] = [];
let failed = false;
for (const workers of workerCounts) {
  const row = await runOnce(workers);
  rows.push(row);
  process.stdout.write(`${format(row)}\n`);
  process.stderr.write(
    `  workers ${workers}: local teardowns (not part of the wall): ${row.teardown.backlog} queued at the end, done ${(row.teardown.tailMs / 1000).toFixed(1)} s later; longest ${row.teardown.maxMs.toFixed(0)} ms, total ${(row.teardown.totalMs / 1000).toFixed(1)} s\n`,
  );
  if (row.lost > 0 || row.doubled > 0 || row.leaked > 0) failed = true;
}
if (values.json !== undefined)
  writeFileSync(values.json, `${JSON.stringify({ instances, quota, seed, maxMode, rows }, null, 2)}\n`);
if (failed) {
  process.stderr.write('scale-sim: an instance was lost or counted twice, or a sandbox was left alive\n');
  process.exitCode = 1;
}
