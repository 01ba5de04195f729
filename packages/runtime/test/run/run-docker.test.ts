/**
 * `runAgentBenchmark` on the Docker adapter against the real engine at DOCKER_HOST (Podman's
 * Docker API in CI): an image without the code at /testbed gets the tree uploaded, on the same
 * path as `sandkit eval`, and the agent's tools work inside the container.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { runAgentBenchmark } from '../../src/run/run-agent-benchmark.js';
import { buildMirrors, miniInstances, tempDir } from '../eval/eval-test-helpers.js';
import { instanceModel, oracle } from './run-test-model.js';

const plainImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';
let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('run-docker'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
});
afterAll(() => cleanup());

describe('runAgentBenchmark with --sandbox docker', () => {
  it('uploads the tree into an image without /testbed, runs the tools in the container, and destroys it', async () => {
    const out = join(dir, 'out');
    const run = await runAgentBenchmark({
      dataset: miniInstances,
      reposDir: join(dir, 'mirrors'),
      cacheDir: join(dir, 'cache'),
      out,
      sandbox: 'docker',
      image: plainImage,
      instanceIds: ['sandkit-mini__durations-1'],
      modelName: 'mock:oracle',
      model: instanceModel(instances, oracle),
      instanceTimeoutSeconds: 300,
    });
    const traj = run.trajectories.get('sandkit-mini__durations-1');
    expect(traj).toMatchObject({ exit_status: 'submitted', sandbox: { provider: 'docker' } });
    expect(traj?.sandbox?.repo_dir).not.toBe('/testbed');
    expect(traj?.steps[0]?.tool_calls[0]).toMatchObject({ name: 'apply_diff', is_error: false });
    const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
    expect(preds['sandkit-mini__durations-1'].model_patch).toContain('diff --git');
    const left = await new Docker().listContainers({
      all: true,
      filters: { label: ['sandkit.managed=true', `sandkit.owner-pid=${process.pid}`] },
    });
    expect(left).toEqual([]);
  }, 180_000);
});
