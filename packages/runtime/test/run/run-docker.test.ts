/**
 * `runAgentBenchmark` and `sandkit run --eval` on the Docker adapter against the real engine at
 * DOCKER_HOST (Podman's Docker API in CI): an image without the code at /testbed gets the tree
 * uploaded, on the same path as `sandkit eval`, and the agent's tools work inside the container;
 * rows with only the official fields run in place at /testbed in their stand-in official images
 * (`scripts/build-stand-in-images.ts`, shared with the eval Docker suite), and the oracle's
 * predictions, made through the real Anthropic provider against the model stand-in, resolve.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { runAgentBenchmark } from '../../src/run/run-agent-benchmark.js';
import { buildMirrors, miniInstances, tempDir } from '../eval/eval-test-helpers.js';
import { buildStandInImages } from '../../../../scripts/build-stand-in-images.js';
import { toOracleInstance } from '../../src/cli/run-model.js';
import { trajectoryPath } from '../../src/run/run-agent-benchmark.js';
import { oracleScript } from '../../src/run/stand-in/scripts.js';
import { startModelStandIn } from '../../src/run/stand-in/start-model-stand-in.js';
import { trajectorySchema } from '../../src/run/trajectory-schema.js';
import { readJsonl, runCli, writeJsonl } from '../eval/eval-test-helpers.js';
import { instanceModel, oracle } from './run-test-model.js';

const plainImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';
let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('run-docker'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
  const rows = await readJsonl(miniInstances);
  const picked = rows.filter((row) => inPlace.includes(String(row.instance_id)));
  buildStandInImages({
    instances: picked.map((row) => ({
      instance_id: String(row.instance_id),
      repo: String(row.repo),
      base_commit: String(row.base_commit),
    })),
    base: plainImage,
  });
  // only the official SWE-bench fields: the image is found by its official name
  await writeJsonl(
    join(dir, 'official.jsonl'),
    picked.map((row) => Object.fromEntries(official.filter((k) => k in row).map((k) => [k, row[k]]))),
  );
}, 240_000);

const inPlace = ['sandkit-mini__durations-1', 'sandkit-mini__durations-2'];
const official = [
  'instance_id',
  'repo',
  'base_commit',
  'patch',
  'test_patch',
  'FAIL_TO_PASS',
  'PASS_TO_PASS',
  'version',
  'environment_setup_commit',
  'problem_statement',
  'hints_text',
  'created_at',
];
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

  it('sandkit run --eval runs in place at /testbed in the official images and the oracle resolves 2 of 2', async () => {
    const dataset = join(dir, 'official.jsonl');
    const standIn = await startModelStandIn({
      script: oracleScript((await loadInstances(dataset)).instances.map(toOracleInstance)),
    });
    const out = join(dir, 'cli-eval');
    try {
      const run = await runCli(
        [
          'run',
          '--dataset',
          dataset,
          '--repos',
          join(dir, 'mirrors'),
          '--sandbox',
          'docker',
          '--model',
          'anthropic:stand-in',
          '--base-url',
          standIn.baseURL,
          '--workers',
          '2',
          '--eval',
          '--out',
          out,
        ],
        { ANTHROPIC_API_KEY: 'stand-in', DOCKER_HOST: process.env.DOCKER_HOST ?? '' },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/\| 2 \| 2 \| 100\.0% \|/);
      const report = JSON.parse(await readFile(join(out, 'eval', 'run_report.json'), 'utf8'));
      expect([...report.resolved_ids].sort()).toEqual(inPlace);
      const ids: string[] = [];
      for (const id of inPlace) {
        const traj = trajectorySchema.parse(JSON.parse(await readFile(trajectoryPath(out, id), 'utf8')));
        expect(traj).toMatchObject({
          exit_status: 'submitted',
          sandbox: { provider: 'docker', repo_dir: '/testbed' },
        });
        ids.push(traj.sandbox?.id ?? '');
      }
      const containers = await new Docker().listContainers({ all: true });
      expect(containers.filter((c) => ids.some((id) => c.Id.startsWith(id) || id.startsWith(c.Id)))).toEqual(
        [],
      );
    } finally {
      await standIn.close();
    }
  }, 300_000);
});
