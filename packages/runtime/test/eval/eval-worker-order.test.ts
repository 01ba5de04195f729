/**
 * The order in which runEval's workers take instances and sandboxes, on the simulated vendor: a
 * worker takes its next instance as soon as the current one has handed its sandbox back (before
 * that instance is graded and written), an instance whose sandbox died runs again before the
 * worker's next instance, and an interrupt in the middle of that leaves no sandbox alive.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type SandboxAdapter,
  type SandboxClient,
  SandboxError,
  type SandboxHandle,
  SandkitErrorCode,
} from '@sandkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceResult } from '../../src/eval/instance/eval-result.js';
import type { EvalProgress } from '../../src/eval/report/progress.js';
import { runEval } from '../../src/eval/run-eval.js';
import { createLocalSimulatedVendor } from '../support/local-simulated-vendor.js';
import { buildSyntheticDataset } from '../support/synthetic-dataset.js';
import { readJsonl, tempDir } from './eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup(instances: number) {
  const { dir, cleanup } = await tempDir('worker-order');
  cleanups.push(cleanup);
  const data = buildSyntheticDataset(dir, { instances, seed: 3, testSeconds: { min: 0, max: 0 } });
  const sandboxRoot = join(dir, 'sandboxes');
  const vendor = createLocalSimulatedVendor(sandboxRoot, {
    seed: 3,
    quota: 4,
    createMs: { median: 20, sigma: 0.3, min: 10, max: 40 },
    roundTripMs: { min: 1, max: 3 },
  });
  const options = {
    dataset: data.dataset,
    gold: true,
    out: join(dir, 'out'),
    reposDir: data.reposDir,
    cacheDir: join(dir, 'cache'),
  };
  return { data, vendor, sandboxRoot, options };
}

/** Records, in order, each create at the vendor and each instance's `progress.finished`. */
function recorder(vendor: SandboxAdapter) {
  const events: string[] = [];
  const adapter: SandboxAdapter = {
    name: vendor.name,
    create: () => {
      events.push('create');
      return vendor.create();
    },
  };
  const progress: EvalProgress = {
    start() {},
    finished(result: InstanceResult) {
      events.push(`finished ${result.instance_id}`);
    },
    notice() {},
    stop() {},
  };
  return { events, adapter, progress };
}

describe('runEval workers', () => {
  describe('with one worker', () => {
    it("asks for the next instance's sandbox before the previous instance is graded and recorded", async () => {
      const { data, vendor, options } = await setup(3);
      const { events, adapter, progress } = recorder(vendor);
      const run = await runEval({ ...options, adapter, workers: 1, progress });
      expect(run.report.resolved_instances).toBe(3);
      const [a, b, c] = data.instanceIds as [string, string, string];
      // instance n+1's create comes before instance n is reported finished
      expect(events).toEqual([
        'create',
        'create',
        `finished ${a}`,
        'create',
        `finished ${b}`,
        `finished ${c}`,
      ]);
      // one worker never holds more than its sandbox and the one being destroyed (the default
      // --max-sandboxes, 2 × workers)
      expect(vendor.stats().peakLive).toBeLessThanOrEqual(2);
      // results.jsonl keeps the order they finished in, every instance once
      const lines = await readJsonl<InstanceResult>(join(run.out, 'results.jsonl'));
      expect(lines.map((line) => line.instance_id)).toEqual([a, b, c]);
    }, 60_000);

    it('probes the image for /testbed once, and uploads the tree at once for the later instances', async () => {
      const { data, vendor, options } = await setup(3);
      const run = await runEval({ ...options, adapter: vendor, workers: 1 });
      expect(run.report.resolved_instances).toBe(3);
      const logs = await Promise.all(
        data.instanceIds.map((id) => readFile(join(run.out, 'instances', id, 'eval.log'), 'utf8')),
      );
      expect(logs.map((log) => log.includes('in place: $'))).toEqual([true, false, false]);
      expect(logs.map((log) => log.includes('not probed again'))).toEqual([false, true, true]);
      for (const log of logs) expect(log).toContain('no repository at /testbed: uploading the tree');
      for (const log of logs) expect(log).toContain('checkout: git archive');
    }, 60_000);

    it('runs an instance whose sandbox died again before it takes the next instance', async () => {
      const { data, vendor, options } = await setup(3);
      const { events, adapter, progress } = recorder(gonesFirstSandbox(vendor));
      const run = await runEval({ ...options, adapter, workers: 1, progress });
      const [a, b, c] = data.instanceIds as [string, string, string];
      expect(run.report.resolved_instances).toBe(3);
      expect(run.results.get(a)?.infra_retries).toBe(1);
      // the first sandbox died under a: a's second sandbox is the next create, before b's
      expect(events).toEqual([
        'create',
        'create',
        'create',
        `finished ${a}`,
        'create',
        `finished ${b}`,
        `finished ${c}`,
      ]);
    }, 60_000);
  });

  describe('when the run is interrupted while a worker has taken its next instance', () => {
    it('records no unfinished instance and leaves no sandbox alive', async () => {
      const { vendor, sandboxRoot, options } = await setup(8);
      const controller = new AbortController();
      const { events, adapter } = recorder(vendor);
      let finished = 0;
      const progress: EvalProgress = {
        start() {},
        finished() {
          // by now this worker's next create is under way (asked for when the sandbox was handed back)
          finished += 1;
          if (finished === 1) controller.abort(new Error('test interrupt'));
        },
        notice() {},
        stop() {},
      };
      const run = await runEval({ ...options, adapter, workers: 2, progress, signal: controller.signal });
      await vendor.settled();
      expect(run.interrupted).toBe(true);
      expect(run.results.size).toBeLessThan(8);
      // the first instance's worker had asked for its next sandbox (2 workers: 2 creates before it)
      expect(events.filter((event) => event === 'create').length).toBeGreaterThanOrEqual(3);
      const stats = vendor.stats();
      expect(stats.live).toBe(0);
      expect(stats.liveSandboxIds).toEqual([]);
      expect(await readdir(sandboxRoot)).toEqual([]);
      const lines = await readJsonl<InstanceResult>(join(run.out, 'results.jsonl'));
      expect(lines.map((line) => line.instance_id).sort()).toEqual([...run.results.keys()].sort());
    }, 60_000);
  });
});

/** `vendor` whose first sandbox is gone at its first call (SandboxError `sandbox_gone`, as an expired E2B sandbox). */
function gonesFirstSandbox(vendor: SandboxAdapter): SandboxAdapter {
  let creates = 0;
  return {
    name: vendor.name,
    async create(): Promise<SandboxHandle> {
      const handle = await vendor.create();
      if (++creates > 1) return handle;
      const gone = (): Promise<never> =>
        Promise.reject(
          new SandboxError({
            code: SandkitErrorCode.sandboxGone,
            message: `sandbox ${handle.id} is gone (test)`,
          }),
        );
      const client: SandboxClient = { exec: gone, readFile: gone, writeFile: gone };
      return { ...handle, client };
    },
  };
}
