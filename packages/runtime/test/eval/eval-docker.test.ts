/**
 * The harness on the Docker adapter against the real engine at DOCKER_HOST (Podman's Docker API
 * in CI), image `localhost/sandkit-sandbox:bookworm` or SANDKIT_DOCKER_IMAGE. Working trees go in
 * as a tar through `writeFile` (the archive checkout mode).
 */
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, tempDir } from './eval-test-helpers.js';

const image = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('docker'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
});
afterAll(() => cleanup());

describe('runEval with --sandbox docker', () => {
  it('resolves a gold instance of each runner in containers and leaves no container behind', async () => {
    const ids = ['sandkit-mini__pager-2', 'sandkit-mini__durations-1', 'sandkit-mini__ledger-1'];
    const run = await runEval({
      dataset: miniInstances,
      gold: true,
      out: join(dir, 'out'),
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      sandbox: 'docker',
      image,
      workers: 2,
      instanceIds: ids,
      timeoutSeconds: 300,
    });
    expect(run.report).toMatchObject({ total_instances: 3, resolved_ids: [...ids].sort(), error_ids: [] });
    for (const id of ids) expect(run.results.get(id)?.patch_method).toBe('git apply');
    const left = await new Docker().listContainers({
      all: true,
      filters: { label: ['sandkit.managed=true', `sandkit.owner-pid=${process.pid}`] },
    });
    expect(left).toEqual([]);
  }, 240_000);
});
