/**
 * The scale simulation at test size: 40 synthetic instances through the real harness and pool,
 * 10 workers, on a simulated vendor (the local adapter with injected latency, a quota of 8 and
 * failure rates raised so that every fault happens at this size). Proves no instance is lost or
 * counted twice, no sandbox outlives the run, and faults are retried rather than reported.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalOptions } from '../../src/eval/eval-options.js';
import type { InstanceResult } from '../../src/eval/instance/eval-result.js';
import type { EvalProgress } from '../../src/eval/report/progress.js';
import { runEval } from '../../src/eval/run-eval.js';
import { durationsCacheFile, readDurationsCache } from '../../src/eval/schedule/durations-cache.js';
import { createLocalSimulatedVendor } from '../support/local-simulated-vendor.js';
import { buildSyntheticDataset } from '../support/synthetic-dataset.js';
import { readJsonl, tempDir } from './eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function simulate(options: {
  seed: number;
  maxSandboxes?: number;
  testSeconds?: { min: number; max: number };
  schedule?: Pick<
    EvalOptions,
    'schedule' | 'durations' | 'durationsCache' | 'workers' | 'instanceIds' | 'progress'
  >;
}) {
  const { dir, cleanup } = await tempDir('scale');
  cleanups.push(cleanup);
  const data = buildSyntheticDataset(dir, {
    instances: 40,
    seed: options.seed,
    testSeconds: options.testSeconds ?? { min: 0, max: 0 },
  });
  const sandboxRoot = join(dir, 'sandboxes');
  const vendor = createLocalSimulatedVendor(sandboxRoot, {
    seed: options.seed,
    quota: 8,
    createMs: { median: 40, sigma: 0.5, min: 20, max: 120 },
    roundTripMs: { min: 2, max: 10 },
    createFailureRate: 0.1,
    expiryRate: 0.1,
    expiryLastCall: 5,
  });
  const run = await runEval({
    dataset: data.dataset,
    gold: true,
    out: join(dir, 'out'),
    reposDir: data.reposDir,
    cacheDir: join(dir, 'cache'),
    adapter: vendor,
    workers: 10,
    // at 20 times the real expiry rate, with the expiring creates clustered (seed 7: 7 of creates
    // 34–67), one instance can draw three expiring sandboxes in a row; the default 2 retries would
    // then report it, which is right for a real run and noise here
    infraRetries: 4,
    ...(options.maxSandboxes === undefined ? {} : { maxSandboxes: options.maxSandboxes }),
    ...options.schedule,
  });
  await vendor.settled();
  const lines = await readJsonl<InstanceResult>(join(run.out, 'results.jsonl'));
  return { data, vendor, run, lines, sandboxRoot };
}

describe('runEval on a simulated vendor with a quota and injected faults', () => {
  describe('when 10 workers share a quota of 8 and the pool may hold 20 (rate limits)', () => {
    it('records every instance exactly once, resolved, retries the faults and leaves no sandbox alive', async () => {
      const { data, vendor, run, lines, sandboxRoot } = await simulate({ seed: 7 });
      const stats = vendor.stats();
      // every injected fault happened at least once with this seed
      expect(stats.rateLimited).toBeGreaterThan(0);
      expect(stats.failedCreates).toBeGreaterThan(0);
      expect(stats.expired).toBeGreaterThan(0);
      // no loss, no double count: one line per instance, and the report agrees
      expect(lines.map((line) => line.instance_id).sort()).toEqual([...data.instanceIds].sort());
      expect(run.report.total_instances).toBe(40);
      expect(run.report.completed_instances).toBe(40);
      expect(run.report.resolved_instances).toBe(40);
      expect(run.report.infra_error_ids).toEqual([]);
      // each expired sandbox made its instance run again on a fresh one; so did an acquire whose
      // creates all failed (4 attempts can draw 4 of seed 7's clustered failing creates)
      const retried = lines.reduce((sum, line) => sum + (line.infra_retries ?? 0), 0);
      expect(retried).toBeGreaterThanOrEqual(stats.expired);
      expect(retried).toBeLessThanOrEqual(stats.expired + Math.floor(stats.failedCreates / 4));
      // the quota was never exceeded, and nothing is left at the vendor or on disk
      expect(stats.peakLive).toBeLessThanOrEqual(8);
      expect(stats.live).toBe(0);
      expect(stats.liveSandboxIds).toEqual([]);
      expect(stats.created).toBe(stats.destroyed + stats.expired);
      expect(await readdir(sandboxRoot)).toEqual([]);
    }, 180_000);
  });

  describe('when maxSandboxes is set to the quota', () => {
    it('is never refused by the vendor and still records every instance once', async () => {
      const { data, vendor, run, lines } = await simulate({ seed: 11, maxSandboxes: 8 });
      const stats = vendor.stats();
      expect(stats.rateLimited).toBe(0);
      expect(lines.map((line) => line.instance_id).sort()).toEqual([...data.instanceIds].sort());
      expect(run.report.resolved_instances).toBe(40);
      expect(stats.live).toBe(0);
    }, 180_000);
  });

  describe("when a run starts longest first by an earlier run's results.jsonl", () => {
    const testSeconds = { min: 0, max: 0.6 };

    it('with one worker, starts the instances in the order of the earlier times, longest first', async () => {
      const first = await simulate({ seed: 5, testSeconds });
      // what longest first orders by: the evaluation script's time in the sandbox
      const times = new Map(first.lines.map((line) => [line.instance_id, line.script_ms!]));
      expect([...times.values()].every((ms) => ms > 0)).toBe(true);
      const ids = first.data.instanceIds.slice(0, 8);
      const second = await simulate({
        seed: 5,
        testSeconds,
        schedule: {
          schedule: 'longest-first',
          durations: join(first.run.out, 'results.jsonl'),
          workers: 1,
          instanceIds: ids,
        },
      });
      // one worker finishes its instances in the order it starts them
      const started = second.lines.map((line) => line.instance_id);
      expect(started).toEqual([...ids].sort((a, b) => times.get(b)! - times.get(a)!));
      expect(started).not.toEqual(ids);
      expect(second.run.report.resolved_instances).toBe(8);
    }, 180_000);

    it('with 10 workers and every fault injected, records every instance exactly once and leaves no sandbox alive', async () => {
      const first = await simulate({ seed: 7, testSeconds });
      const { data, vendor, run, lines, sandboxRoot } = await simulate({
        seed: 7,
        testSeconds,
        schedule: { schedule: 'longest-first', durations: join(first.run.out, 'results.jsonl') },
      });
      const stats = vendor.stats();
      expect(stats.failedCreates + stats.expired + stats.rateLimited).toBeGreaterThan(0);
      expect(lines.map((line) => line.instance_id).sort()).toEqual([...data.instanceIds].sort());
      expect(run.report.resolved_instances).toBe(40);
      expect(run.report.infra_error_ids).toEqual([]);
      expect(stats.peakLive).toBeLessThanOrEqual(8);
      expect(stats.liveSandboxIds).toEqual([]);
      expect(await readdir(sandboxRoot)).toEqual([]);
    }, 180_000);
  });

  describe('when --schedule auto (the default) keeps the times in a durations cache', () => {
    const testSeconds = { min: 0, max: 0.6 };
    /** One worker, 8 instances: the order they finish in (results.jsonl) is the order they started in. */
    const auto = async (cache: string, extra: Pick<EvalOptions, 'durations'> = {}) => {
      const notices: string[] = [];
      const progress: EvalProgress = {
        start() {},
        finished() {},
        notice: (message) => void notices.push(message),
        stop() {},
      };
      const ids = Array.from({ length: 8 }, (_, index) => `sim__calc-${String(index).padStart(4, '0')}`);
      const run = await simulate({
        seed: 5,
        testSeconds,
        schedule: { workers: 1, instanceIds: ids, durationsCache: cache, progress, ...extra },
      });
      return { ...run, ids, notices, started: run.lines.map((line) => line.instance_id) };
    };
    const cacheDir = async () => {
      const { dir, cleanup } = await tempDir('durations-cache');
      cleanups.push(cleanup);
      return dir;
    };
    const longestFirst = (ids: readonly string[], times: ReadonlyMap<string, number>) =>
      [...ids].sort((a, b) => times.get(b)! - times.get(a)!);

    it('runs a first run in the dataset order and a second one longest first by the first run’s times', async () => {
      const cache = await cacheDir();
      const first = await auto(cache);
      expect(first.run.schedule?.order).toBe('dataset');
      expect(first.run.schedule?.reason).toMatch(/none of the 8 instance\(s\) has a time/);
      expect(first.started).toEqual(first.ids);
      // the cache now holds each instance's script time of this run
      const cached = await readDurationsCache(cache);
      expect(cached.ignored).toBeNull();
      const times = new Map(first.lines.map((line) => [line.instance_id, line.script_ms!]));
      expect(new Map([...cached.entries.values()].map((entry) => [entry.id, entry.ms]))).toEqual(times);

      const second = await auto(cache);
      expect(second.run.schedule?.order).toBe('longest-first');
      expect(second.run.schedule?.reason).toMatch(/durations cache .*8 of 8 instance\(s\) have a time$/);
      expect(second.started).toEqual(longestFirst(first.ids, times));
      expect(second.started).not.toEqual(first.ids);
      expect(second.notices).toContain(`schedule: ${second.run.schedule?.reason}`);
      const summary = await readFile(join(second.run.out, 'summary.md'), 'utf8');
      expect(summary).toContain(`Schedule: ${second.run.schedule?.reason}.`);
      const report = JSON.parse(await readFile(join(second.run.out, 'run_report.json'), 'utf8'));
      expect(report.schedule).toEqual(second.run.schedule);
      expect(second.run.report.resolved_instances).toBe(8);
    }, 180_000);

    it.each([
      { name: 'cut-off JSON', text: '{"format": "sandkit-durations", "version": 1, "entries": {"ab' },
      { name: 'another program’s JSON', text: '{"durations": {"sim__calc-0000": 5}}' },
    ])(
      'when the cache file is $name, ignores it with a note, runs in the dataset order and rewrites it',
      async ({ text }) => {
        const cache = await cacheDir();
        await writeFile(join(cache, durationsCacheFile), text);
        const run = await auto(cache);
        expect(run.notices.some((note) => note.startsWith('durations cache ignored: '))).toBe(true);
        expect(run.run.schedule?.order).toBe('dataset');
        expect(run.started).toEqual(run.ids);
        expect(run.run.report.resolved_instances).toBe(8);
        const rewritten = await readDurationsCache(cache);
        expect(rewritten.ignored).toBeNull();
        expect(rewritten.entries.size).toBe(8);
      },
      180_000,
    );

    it('orders by --durations, not by the cache, when both have times', async () => {
      const cache = await cacheDir();
      const first = await auto(cache);
      const cachedTimes = new Map(first.lines.map((line) => [line.instance_id, line.script_ms!]));
      // an earlier run whose times put the instances in the cache's order reversed
      const max = Math.max(...cachedTimes.values());
      const file = join(await cacheDir(), 'results.jsonl');
      await writeFile(
        file,
        first.lines
          .map((line) =>
            JSON.stringify({ ...line, script_ms: max - line.script_ms! + 1, duration_ms: 1, acquire_ms: 0 }),
          )
          .join('\n'),
      );
      const reversed = new Map([...cachedTimes].map(([id, ms]) => [id, max - ms + 1]));
      const second = await auto(cache, { durations: file });
      expect(second.run.schedule?.reason).toContain(`longest first by --durations ${file} (script_ms)`);
      expect(second.started).toEqual(longestFirst(first.ids, reversed));
      expect(second.started).not.toEqual(longestFirst(first.ids, cachedTimes));
    }, 180_000);
  });
});
