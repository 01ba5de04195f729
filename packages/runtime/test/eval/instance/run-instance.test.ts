/**
 * runInstance's order of work, seen through runEval on the simulated vendor: the sandbox is asked
 * for before the instance's host-side files are written (so its create overlaps them), and a
 * sandbox asked for is destroyed when those files cannot be written.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxAdapter } from '@sandkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { runEval } from '../../../src/eval/run-eval.js';
import { createLocalSimulatedVendor } from '../../support/local-simulated-vendor.js';
import { buildSyntheticDataset } from '../../support/synthetic-dataset.js';
import { tempDir } from '../eval-test-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup() {
  const { dir, cleanup } = await tempDir('run-instance');
  cleanups.push(cleanup);
  const data = buildSyntheticDataset(dir, { instances: 3, seed: 2, testSeconds: { min: 0, max: 0 } });
  const sandboxRoot = join(dir, 'sandboxes');
  const vendor = createLocalSimulatedVendor(sandboxRoot, {
    seed: 2,
    quota: 4,
    createMs: { median: 20, sigma: 0.3, min: 10, max: 40 },
    roundTripMs: { min: 1, max: 3 },
  });
  const out = join(dir, 'out');
  const options = {
    dataset: data.dataset,
    gold: true,
    out,
    reposDir: data.reposDir,
    cacheDir: join(dir, 'cache'),
  };
  return { data, vendor, sandboxRoot, out, options };
}

describe('runInstance (through runEval)', () => {
  describe('when an instance has a patch', () => {
    it("asks for its sandbox before it writes the instance's files, so the create overlaps them", async () => {
      const { data, vendor, out, options } = await setup();
      const seenAtCreate: boolean[] = [];
      let serial = 0;
      const observed: SandboxAdapter = {
        name: vendor.name,
        create: () => {
          // one worker: the n-th create is for the n-th instance
          const id = data.instanceIds[serial++]!;
          seenAtCreate.push(existsSync(join(out, 'instances', id, 'patch.diff')));
          return vendor.create();
        },
      };
      const run = await runEval({ ...options, adapter: observed, workers: 1 });
      expect(run.report.resolved_instances).toBe(3);
      expect(seenAtCreate).toEqual([false, false, false]);
      // the wait for the sandbox is recorded as part of the instance's time (at least the vendor's create)
      for (const result of run.results.values()) {
        expect(result.acquire_ms).toBeGreaterThanOrEqual(10);
        expect(result.acquire_ms).toBeLessThanOrEqual(result.duration_ms);
      }
    }, 60_000);
  });

  describe("when the instance's output directory cannot be made", () => {
    it('destroys the sandbox it asked for and records an internal error', async () => {
      const { vendor, sandboxRoot, out, options } = await setup();
      // a file where the instances' directory should be: rm and mkdir fail with ENOTDIR
      await mkdir(out, { recursive: true });
      await writeFile(join(out, 'instances'), 'not a directory');
      const run = await runEval({ ...options, adapter: vendor, workers: 2 });
      await vendor.settled();
      const stats = vendor.stats();
      expect(stats.created).toBe(3);
      expect(stats.liveSandboxIds).toEqual([]);
      expect(stats.live).toBe(0);
      expect(await readdir(sandboxRoot)).toEqual([]);
      expect(run.report.error_instances).toBe(3);
      expect([...run.results.values()].map((result) => result.error_kind)).toEqual([
        'internal',
        'internal',
        'internal',
      ]);
    }, 60_000);
  });
});
