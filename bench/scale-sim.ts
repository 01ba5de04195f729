/**
 * scale-sim (issue 12, item 4): N synthetic instances (default 500) graded by the real harness
 * (`runEval`, the code path of `sandkit eval`) and the pooled provider, on a simulated vendor: the
 * local adapter behind `createSimulatedVendorAdapter` (create 150–900 ms log-normal, +20–80 ms per
 * call, a concurrency quota, 1% failed creates, 0.5% sandboxes expiring mid-run; seeded). Each
 * instance is `python3 -m unittest` on a tiny repository after a seeded 10–30 s `sleep` standing for
 * the test time a vendor's machine would spend (it costs the host no CPU).
 *
 * Why 10–30 s (the default since 2026-12-01; it was 2–6 s): on a vendor every sandbox has its own
 * CPUs, here the 100 local sandboxes share the host's. An instance costs the host about 0.25 CPU·s
 * (printed per row: the harness's share and the sandboxes' processes', mostly python3's start-up
 * and git), so with 2–6 s tests 100 sandboxes asked for 5 cores of a 2-core machine: the run was
 * CPU-bound, an instance's time was mostly its wait for the CPU (12.5 s on average for a 4 s sleep),
 * finishes came in waves, and no run's times predicted the next's. With 10–30 s tests the
 * sandboxes ask for about 1.2 cores and an instance's time is its own test time, as on a vendor.
 * `--test-seconds 2:6` reproduces the earlier rows. Every schedule runs the same tests.
 *
 * Per worker count it prints one Markdown row: wall against the ideal (the sum of the instance
 * times divided by the concurrency min(workers, quota)), the share of quota·wall the vendor's slots
 * were held, host RSS and fds per concurrent sandbox, event-loop delay, retries, infrastructure
 * errors, and the checks: no instance lost or counted twice, no sandbox left alive (exit 1 if any).
 *
 * An instance's time is its `duration_ms` minus the time its acquire waited for a free quota slot
 * ("acquired in N ms" in its eval.log minus its sandbox's own create time at the vendor), so that rows
 * with more workers than the quota are not credited with queueing. For an instance run again
 * after its sandbox expired, only the last attempt's time counts (the ideal is understated).
 *
 * Each worker count runs twice by default (`--schedules dataset,longest-first`): in the dataset's
 * order, then with `--schedule longest-first` ordered by the first run's results.jsonl, as a user
 * would with an earlier run of the same instances. Beside each row: where the idle slot-time went
 * (the ramp, a freed slot waiting to be taken again, the drain at the end; from the vendor's slot
 * timeline, shown when the slots were all full once), the slot-time held between a sandbox's ready
 * and its first call (counted as busy, but the harness's own steps), and the rank correlation of
 * the instance times with their test sleep and with the earlier times (how well they predict).
 *
 * `--schedules auto` runs every row as a user's `sandkit eval` does by default (`--schedule auto`),
 * with one durations cache shared by the rows (a temp dir, or `--durations-cache DIR` to start from
 * and keep one): the first row finds it empty and runs in the dataset's order, later rows run
 * longest first by the times the earlier rows left in it. So `--workers 100,100 --schedules auto`
 * is a user's first and second run; the schedule column says what auto chose (`auto → dataset`).
 * `--durations FILE` instead runs every row longest first by that earlier results.jsonl.
 *
 * Run: `pnpm tsx bench/scale-sim.ts [--instances 500] [--quota 100] [--workers 10,50,100,200]
 *   [--seed 1] [--test-seconds 10:30] [--max-sandboxes quota|double] [--creates-per-second N]
 *   [--schedules dataset|dataset,longest-first|auto] [--durations-cache DIR] [--durations FILE]
 *   [--pace] [--json FILE] [--keep]`
 * (`--creates-per-second 5` adds E2B Pro's creation rate limit, refused with the same 429;
 * `--pace` also gives the harness that rate, `sandkit eval --creates-per-second 5`, so it spaces
 * its creates instead of retrying refused ones.
 * `--max-sandboxes double` keeps the harness default, 2 × workers, so the vendor refuses creates
 * past its quota and the pool's rate-limit retry carries the run.)
 */
import {
  accessSync,
  constants,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { InstanceResult } from '../packages/runtime/src/eval/instance/eval-result.js';
import type { EvalProgress } from '../packages/runtime/src/eval/report/progress.js';
import { runEval } from '../packages/runtime/src/eval/run-eval.js';
import { readDurationsCache } from '../packages/runtime/src/eval/schedule/durations-cache.js';
import { readDurations } from '../packages/runtime/src/eval/schedule/read-durations.js';
import {
  createSimulatedVendorAdapter,
  defaultVendorProfile,
} from '../packages/runtime/test/support/simulated-vendor-adapter.js';
import { buildSyntheticDataset } from '../packages/runtime/test/support/synthetic-dataset.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '500' },
    quota: { type: 'string', default: '100' },
    workers: { type: 'string', default: '10,50,100,200' },
    seed: { type: 'string', default: '1' },
    'test-seconds': { type: 'string', default: '10:30' },
    'max-sandboxes': { type: 'string', default: 'quota' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    pace: { type: 'boolean', default: false },
    'creates-per-second': { type: 'string', default: 'Infinity' },
    schedules: { type: 'string', default: 'dataset,longest-first' },
    durations: { type: 'string' },
    'durations-cache': { type: 'string' },
  },
});
const instances = Number(values.instances);
const quota = Number(values.quota);
const seed = Number(values.seed);
const [testMin, testMax] = (values['test-seconds'] ?? '10:30').split(':').map(Number) as [number, number];
const workerCounts = (values.workers ?? '').split(',').map(Number);
const maxMode = values['max-sandboxes'];
const createsPerSecond = Number(values['creates-per-second']);
if (maxMode !== 'quota' && maxMode !== 'double') throw new Error('--max-sandboxes must be quota or double');
const fixedDurations = values.durations ?? null;
const schedules = fixedDurations === null ? (values.schedules ?? '').split(',') : ['longest-first'];
const autoMode = schedules.length === 1 && schedules[0] === 'auto';
if (
  fixedDurations === null &&
  !autoMode &&
  (schedules.some((s) => s !== 'dataset' && s !== 'longest-first') || schedules[0] !== 'dataset')
)
  throw new Error(
    "--schedules must be dataset, dataset,longest-first (longest first uses the dataset row's times) or auto",
  );
if (values['durations-cache'] !== undefined && !autoMode)
  throw new Error('--durations-cache goes with --schedules auto');

/** One row of the report. */
interface Row {
  workers: number;
  /** The order instances started in: the dataset's, or longest first by earlier times. */
  schedule: 'dataset' | 'longest-first';
  /** What the row asked for: `auto` rows let the harness choose from the durations cache. */
  requested: 'auto' | 'dataset' | 'longest-first';
  /** The harness's sentence for its choice (`EvalRunResult.schedule`). */
  scheduleReason: string;
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
  /** CPU seconds spent on the host during the run (up to runEval's return): this process, and the local sandboxes' processes. */
  cpuS: { harness: number; sandboxes: number };
  /**
   * Spearman rank correlation of the instances' times (less their wait for a sandbox) with their seeded test sleep (how much of an
   * instance's time is its own rather than the host's load), and, for longest-first rows, with the
   * times it was ordered by (how well the earlier run predicted this one).
   */
  rankCorrelation: { sleep: number; previous: number };
  /** Σ over sandboxes of (first call − ready): held, not yet used (the harness's own steps between acquire and the first command), in slot·s. */
  readyToFirstCallS: number;
  /** Where the idle slot-time (quota × wall − held) went, in slot·s; see {@link idleBreakdown}. */
  idle: IdleBreakdown;
  /** The simulated vendor's local teardowns: queued at the end of the run, time to finish them after it, longest, total (ms). */
  teardown: { backlog: number; tailMs: number; maxMs: number; totalMs: number };
}

/** Idle quota slot-time, in slot·s, split by when it happened. */
interface IdleBreakdown {
  /** Slots not yet taken in the ramp: Σ over the first `quota` takes of (take − start). */
  rampS: number;
  /** A freed slot waiting to be taken again, before the queue drained: Σ (next take − free). */
  refillS: number;
  /** Of the refill gaps, how many there were, their median and 90th percentile, in ms. */
  refills: { count: number; p50Ms: number; p90Ms: number };
  /** After the queue drained: slots freed and not needed again, up to the end of the run. */
  drainS: number;
}

/**
 * Splits quota × wall − held into the ramp, the refill gaps and the drain, from the vendor's slot
 * timeline. The k-th freed slot is matched with take number quota + k (a slot is one of `quota`
 * interchangeable ones, so this is the order in which they are refilled); a free with no take
 * after it idles to the end of the run. Exact when the slots were full once (peak = quota).
 */
function idleBreakdown(
  timeline: { takenAt: readonly number[]; freedAt: readonly number[] },
  quota: number,
  startedAt: number,
  drainAt: number,
  endAt: number,
): IdleBreakdown {
  const taken = [...timeline.takenAt].filter((t) => t <= endAt).sort((a, b) => a - b);
  const freed = [...timeline.freedAt].filter((t) => t <= endAt).sort((a, b) => a - b);
  let rampMs = (quota - Math.min(quota, taken.length)) * (endAt - startedAt);
  for (const at of taken.slice(0, quota)) rampMs += at - startedAt;
  let refillMs = 0;
  let drainMs = 0;
  const gaps: number[] = [];
  freed.forEach((at, k) => {
    const next = taken[quota + k];
    const until = next ?? endAt;
    if (next !== undefined && at < drainAt) {
      refillMs += until - at;
      gaps.push(until - at);
    } else drainMs += until - at;
  });
  gaps.sort((a, b) => a - b);
  const q = (p: number): number => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? 0;
  return {
    rampS: rampMs / 1000,
    refillS: refillMs / 1000,
    refills: { count: gaps.length, p50Ms: q(0.5), p90Ms: q(0.9) },
    drainS: drainMs / 1000,
  };
}

/** Spearman's rank correlation of the pairs (average ranks for ties). */
function spearman(pairs: ReadonlyArray<readonly [number, number]>): number {
  const ranks = (values: number[]): number[] => {
    const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
    const out = new Array<number>(values.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]!.value === order[i]!.value) j++;
      for (let k = i; k <= j; k++) out[order[k]!.index] = (i + j) / 2;
      i = j + 1;
    }
    return out;
  };
  const a = ranks(pairs.map((pair) => pair[0]));
  const b = ranks(pairs.map((pair) => pair[1]));
  const mean = (xs: number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  a.forEach((x, i) => {
    const y = b[i]!;
    num += (x - ma) * (y - mb);
    da += (x - ma) ** 2;
    db += (y - mb) ** 2;
  });
  return num / Math.sqrt(da * db);
}

/** An instance's time without its wait for a sandbox (`--schedule longest-first` orders by the earlier run's `script_ms`, its script's part). */
const runMs = (line: InstanceResult): number => line.duration_ms - (line.acquire_ms ?? 0);
const readResults = (file: string): InstanceResult[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as InstanceResult);
const fdCount = (): number => readdirSync('/proc/self/fd').length;
/**
 * CPU seconds of this process (the harness, the pool, the simulated vendor) and of its waited-for
 * children (the local sandboxes' shells and everything they ran), from `/proc/self/stat`
 * (utime + stime, cutime + cstime; clock ticks of 1/100 s).
 */
function cpuSeconds(): { harness: number; sandboxes: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ').map(Number);
  // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14–17
  return { harness: (fields[11]! + fields[12]!) / 100, sandboxes: (fields[13]! + fields[14]!) / 100 };
}
const gc = (globalThis as { gc?: () => void }).gc;

/** How a row chooses its order: as the user would with each `--schedule`. */
type RowSchedule =
  | { requested: 'dataset' }
  /** `--schedule longest-first --durations FILE` (a results.jsonl of an earlier run). */
  | { requested: 'longest-first'; durations: string }
  /** `--schedule auto` (the default) with the durations cache in `cacheDir`, shared by the rows. */
  | { requested: 'auto'; cacheDir: string };

/**
 * One run of `count` instances, ordered as `order` says. `keepResults`: where to copy this run's
 * results.jsonl before the work directory is removed.
 */
async function runOnce(
  workers: number,
  count: number,
  order: RowSchedule,
  keepResults: string | null,
): Promise<Row> {
  const durations = order.requested === 'longest-first' ? order.durations : null;
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-sim-'));
  try {
    const data = buildSyntheticDataset(work, {
      instances: count,
      seed,
      testSeconds: { min: testMin, max: testMax },
    });
    const sandboxRoot = join(work, 'sandboxes');
    const poolMax = maxMode === 'quota' ? quota : workers * 2;
    const cachedBefore =
      order.requested === 'auto'
        ? new Map([...(await readDurationsCache(order.cacheDir)).entries.values()].map((e) => [e.id, e.ms]))
        : null;
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
    const cpu0 = cpuSeconds();
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
      ...(values.pace ? { createsPerSecond } : {}),
      ...(order.requested === 'auto'
        ? { schedule: 'auto' as const, durationsCache: order.cacheDir }
        : {
            schedule: order.requested,
            ...(durations === null ? {} : { durations }),
            durationsCache: false as const,
          }),
      timeoutSeconds: 600,
      progress,
    });
    const endedAt = performance.now();
    const wallMs = endedAt - started;
    const cpu1 = cpuSeconds();
    loop.disable();
    clearInterval(sampler);
    const teardownStarted = performance.now();
    const backlog = vendor.stats().teardownsPending;
    await vendor.settled();
    const teardownTailMs = performance.now() - teardownStarted;
    const stats = vendor.stats();
    const records = vendor.sandboxes();
    for (const line of readResults(join(run.out, 'results.jsonl'))) {
      if (line.status !== 'resolved')
        process.stderr.write(
          `  ${line.instance_id}: ${line.status} ${line.error_kind ?? ''} ${line.error_code ?? ''} ${(line.error ?? '').slice(0, 300)}\n`,
        );
    }

    const lines = readResults(join(run.out, 'results.jsonl'));
    const ids = new Set(lines.map((line) => line.instance_id));
    let sumInstanceMs = 0;
    // what longest first ordered by (for auto rows, what the cache held before this row)
    const previousTimes = durations !== null ? (await readDurations(durations)).durations : cachedBefore;
    for (const line of lines) {
      const log = readFileSync(join(run.out, 'instances', line.instance_id, 'eval.log'), 'utf8');
      // the last attempt's acquire (an expired sandbox's instance ran again)
      const acquired = [...log.matchAll(/^\[\d+\.\d+s\] sandbox (\S+) from .* acquired in (\d+) ms$/gm)].at(
        -1,
      );
      const record = acquired ? records.get(acquired[1] ?? '') : undefined;
      const slotWaitMs = acquired && record ? Number(acquired[2]) - (record.readyAt - record.requestedAt) : 0;
      sumInstanceMs += line.duration_ms - Math.max(0, slotWaitMs);
    }
    const concurrency = Math.min(workers, quota, poolMax);
    if (keepResults !== null) copyFileSync(join(run.out, 'results.jsonl'), keepResults);
    const leftDirs = readdirSync(sandboxRoot).length;
    return {
      workers,
      schedule: run.schedule?.order ?? 'dataset',
      requested: order.requested,
      scheduleReason: run.schedule?.reason ?? '',
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
      cpuS: { harness: cpu1.harness - cpu0.harness, sandboxes: cpu1.sandboxes - cpu0.sandboxes },
      rankCorrelation: {
        sleep: spearman(lines.map((line) => [runMs(line), data.testSeconds.get(line.instance_id) ?? 0])),
        previous:
          previousTimes === null
            ? Number.NaN
            : spearman(lines.map((line) => [runMs(line), previousTimes.get(line.instance_id) ?? 0])),
      },
      readyToFirstCallS:
        [...records.values()].reduce(
          (sum, record) => sum + Math.max(0, (record.firstCallAt ?? record.readyAt) - record.readyAt),
          0,
        ) / 1000,
      idle: idleBreakdown(vendor.slotTimeline(), quota, started, drainAt > 0 ? drainAt : endedAt, endedAt),
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
  '| workers | schedule | pool max | wall s | ideal s | wall / ideal | quota busy | busy until drain | busy of min(workers, quota) | peak live | host RSS growth (per sandbox) | fds growth (per sandbox) | event-loop p99 | creates (rate-limited / failed) | expired | instance retries | infra errors | resolved | lost | double | leaked | idle slot·s: ramp / refill / drain | held before first call, slot·s | rank corr. with test sleep / earlier times | host CPU s: harness / sandboxes (per instance) | load 1-min |';
const rule = `|${header
  .split('|')
  .slice(1, -1)
  .map(() => '---:')
  .join('|')}|`;
function format(row: Row): string {
  return `| ${row.workers} | ${row.requested === 'auto' ? `auto → ${row.schedule}` : row.schedule} | ${row.poolMax} | ${row.wallS.toFixed(1)} | ${row.idealS.toFixed(1)} | ${(row.wallS / row.idealS).toFixed(3)}× | ${pct(row.busy)} | ${pct(row.busyUntilDrain)} | ${pct((row.busy * quota) / Math.min(row.workers, quota))} | ${row.peakLive} | ${row.rssGrowthMiB.toFixed(0)} MiB (${row.rssPerSandboxMiB.toFixed(2)}) | ${row.fdGrowth} (${row.fdsPerSandbox.toFixed(2)}) | ${row.loopDelayP99Ms.toFixed(0)} ms | ${row.createCalls} (${row.rateLimited} / ${row.failedCreates}) | ${row.expired} | ${row.instanceRetries} | ${row.infraErrors} | ${row.resolved} | ${row.lost} | ${row.doubled} | ${row.leaked} | ${row.peakLive < quota ? '—' : `${row.idle.rampS.toFixed(0)} / ${row.idle.refillS.toFixed(0)} / ${row.idle.drainS.toFixed(0)}`} | ${row.readyToFirstCallS.toFixed(1)} | ${row.rankCorrelation.sleep.toFixed(2)} / ${Number.isNaN(row.rankCorrelation.previous) ? '—' : row.rankCorrelation.previous.toFixed(2)} | ${row.cpuS.harness.toFixed(0)} / ${row.cpuS.sandboxes.toFixed(0)} (${((row.cpuS.harness + row.cpuS.sandboxes) / instances).toFixed(3)}) | ${row.load[0].toFixed(1)} → ${row.load[1].toFixed(1)} |`;
}

// Each instance starts python3 a few times in its sandbox: a python3 on PATH that is a script
// (pyenv's shim is bash starting several processes a call) makes the host's CPU, not the simulated
// vendor, set the instance times.
const python = whichOnPath('python3');
if (python !== undefined && readFileSync(python).subarray(0, 2).toString('latin1') === '#!')
  process.stderr.write(
    `scale-sim: warning: python3 on PATH is the script ${python} (a pyenv shim?): every test run starts several more processes; rerun with PATH=/usr/bin:$PATH\n`,
  );

process.stdout.write(
  `scale-sim: ${instances} instances, quota ${quota}, ${createsPerSecond} creates/s${values.pace ? ' (the harness paced to it)' : ''}, pool max ${maxMode === 'quota' ? 'the quota' : '2 × workers'}, seed ${seed}, test time ${testMin}–${testMax} s, ${new Date().toISOString()}, Node ${process.version}\n\n${header}\n${rule}\n`,
);
// warm-up, not reported: module loading and JIT would otherwise count as the first row's RSS growth
await runOnce(Math.min(10, quota), Math.min(20, instances), { requested: 'dataset' }, null);
const resultsDir = mkdtempSync(join(tmpdir(), 'bench-scale-sim-results-'));
const rows: Row[] = [];
let failed = false;
const cacheDir = values['durations-cache'] ?? join(resultsDir, 'durations-cache');
for (const workers of workerCounts) {
  for (const schedule of schedules) {
    const previous = fixedDurations ?? join(resultsDir, `dataset-${workers}.jsonl`);
    const order: RowSchedule =
      schedule === 'auto'
        ? { requested: 'auto', cacheDir }
        : schedule === 'longest-first'
          ? { requested: 'longest-first', durations: previous }
          : { requested: 'dataset' };
    const row = await runOnce(workers, instances, order, schedule === 'dataset' ? previous : null);
    rows.push(row);
    process.stderr.write(`  workers ${workers}: schedule: ${row.scheduleReason}\n`);
    process.stdout.write(`${format(row)}\n`);
    report(row);
  }
}
rmSync(resultsDir, { recursive: true, force: true });
function report(row: Row): void {
  const { workers } = row;
  process.stderr.write(
    `  workers ${workers}: local teardowns (not part of the wall): ${row.teardown.backlog} queued at the end, done ${(row.teardown.tailMs / 1000).toFixed(1)} s later; longest ${row.teardown.maxMs.toFixed(0)} ms, total ${(row.teardown.totalMs / 1000).toFixed(1)} s\n`,
  );
  const { idle } = row;
  if (row.peakLive >= quota)
    process.stderr.write(
      `  workers ${workers}: idle slot·s ${(quota * row.wallS - row.busy * quota * row.wallS).toFixed(0)} = ramp ${idle.rampS.toFixed(0)} + refill gaps ${idle.refillS.toFixed(0)} (${idle.refills.count}, p50 ${idle.refills.p50Ms.toFixed(0)} ms, p90 ${idle.refills.p90Ms.toFixed(0)} ms) + drain ${idle.drainS.toFixed(0)}\n`,
    );
  if (row.lost > 0 || row.doubled > 0 || row.leaked > 0) failed = true;
}
if (values.json !== undefined)
  writeFileSync(values.json, `${JSON.stringify({ instances, quota, seed, maxMode, rows }, null, 2)}\n`);
if (failed) {
  process.stderr.write('scale-sim: an instance was lost or counted twice, or a sandbox was left alive\n');
  process.exitCode = 1;
}

/** The first executable `name` on PATH, or `undefined`. */
function whichOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir || '.', name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
