/**
 * An instance whose sandbox dies under the agent's tools runs again, once, on a fresh sandbox:
 * the simulated vendor (the scale simulation's latency-injecting adapter over real local
 * sandboxes) expires the run's first sandbox mid-run, as E2B does with an expired sandbox.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { runAgentBenchmark, trajectoryPath } from '../../src/run/run-agent-benchmark.js';
import { trajectorySchema } from '../../src/run/trajectory-schema.js';
import { buildMirrors, miniInstances, tempDir } from '../eval/eval-test-helpers.js';
import { createLocalSimulatedVendor } from '../support/local-simulated-vendor.js';
import { instanceModel, neverStops } from './run-test-model.js';

let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('run-fresh'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
});
afterAll(() => cleanup());

/** Seed 16 draws an expiry at the 11th call for create 1 (mid-run, past the preparation) and none for create 2. */
const vendor = (seed: number, expiryRate: number) =>
  createLocalSimulatedVendor(join(dir, `sandboxes-${seed}-${expiryRate}`), {
    seed,
    quota: 10,
    createMs: { median: 30, sigma: 0.1, min: 10, max: 50 },
    roundTripMs: { min: 1, max: 2 },
    expiryRate,
    expiryLastCall: 12,
  });

const run = (name: string, adapter: ReturnType<typeof vendor>) =>
  runAgentBenchmark({
    dataset: miniInstances,
    reposDir: join(dir, 'mirrors'),
    cacheDir: join(dir, 'cache'),
    out: join(dir, name),
    adapter,
    instanceIds: ['sandkit-mini__pager-1'],
    stepLimit: 8,
    modelName: 'mock:never-stops',
    model: instanceModel(instances, neverStops),
    workers: 1,
  });

describe('runAgentBenchmark', () => {
  describe('when the sandbox dies under the tools', () => {
    it('runs the instance again on a fresh sandbox, keeps both attempts in the trajectory and counts the retry', async () => {
      const adapter = vendor(16, 0.5);
      const result = await run('dies-once', adapter);
      const traj = result.trajectories.get('sandkit-mini__pager-1');
      expect(adapter.stats()).toMatchObject({ created: 2, expired: 1 });
      expect(traj?.exit_status).toBe('step_limit');
      expect(traj?.steps).toHaveLength(8);
      expect(traj?.attempts).toHaveLength(1);
      const first = traj?.attempts[0];
      expect(first).toMatchObject({
        attempt: 1,
        exit_status: 'sandbox_error',
        error: { kind: 'sandbox_gone' },
      });
      expect(first?.steps.length).toBeGreaterThan(0);
      expect(first?.sandbox?.id).not.toBe(traj?.sandbox?.id);
      expect(traj?.totals.steps).toBe(8 + (first?.steps.length ?? 0));
      expect(result.record.sandbox_retries).toBe(1);
      await adapter.settled();
      expect(adapter.stats().liveSandboxIds).toEqual([]);
    });

    it('ends sandbox_error after the second sandbox dies too, with both attempts recorded', async () => {
      const adapter = vendor(16, 1);
      const result = await run('dies-twice', adapter);
      // not final (--resume runs it again), so it is on disk but not among the run's finished ones
      expect(result.trajectories.has('sandkit-mini__pager-1')).toBe(false);
      const traj = trajectorySchema.parse(
        JSON.parse(await readFile(trajectoryPath(result.out, 'sandkit-mini__pager-1'), 'utf8')),
      );
      expect(adapter.stats()).toMatchObject({ created: 2, expired: 2 });
      expect(traj.exit_status).toBe('sandbox_error');
      expect(traj.error?.kind).toBe('sandbox_gone');
      expect(traj.attempts).toHaveLength(1);
      expect(traj.attempts[0]?.sandbox?.id).not.toBe(traj.sandbox?.id);
      await adapter.settled();
      expect(adapter.stats().liveSandboxIds).toEqual([]);
    });
  });
});
