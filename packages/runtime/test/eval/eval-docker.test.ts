/**
 * The harness on the Docker adapter against the real engine at DOCKER_HOST (Podman's Docker API
 * in CI). Stand-ins for SWE-bench's per-instance images (`scripts/build-stand-in-images.ts`:
 * repository at /testbed at base_commit, conda activation shim, official names) are built first;
 * rows carrying only the official SWE-bench fields then find their image by name and are graded
 * in place. An image without the code (SANDKIT_DOCKER_IMAGE, default the plain sandbox image) gets
 * the tree uploaded instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStandInImages } from '../../../../scripts/build-stand-in-images.js';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, readJsonl, tempDir, writeJsonl } from './eval-test-helpers.js';

const plainImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';
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

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
let rows: Array<Record<string, unknown>>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('docker'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
  rows = await readJsonl(miniInstances);
  buildStandInImages({
    instances: rows
      .filter((row) =>
        ['sandkit-mini__durations-1', 'sandkit-mini__durations-2', 'sandkit-mini__pager-2'].includes(
          String(row.instance_id),
        ),
      )
      .map((row) => ({
        instance_id: String(row.instance_id),
        repo: String(row.repo),
        base_commit: String(row.base_commit),
      })),
    base: plainImage,
  });
}, 240_000);
afterAll(() => cleanup());

const leftovers = () =>
  new Docker().listContainers({
    all: true,
    filters: { label: ['sandkit.managed=true', `sandkit.owner-pid=${process.pid}`] },
  });

describe('runEval with --sandbox docker', () => {
  describe('when rows carry only the official fields and the official images exist', () => {
    it('finds each image by its official name, evaluates in place at /testbed and resolves the gold patches', async () => {
      const dataset = join(dir, 'official.jsonl');
      const only = (row: Record<string, unknown>) =>
        Object.fromEntries(official.filter((k) => k in row).map((k) => [k, row[k]]));
      await writeJsonl(dataset, [
        ...rows.filter((row) => String(row.instance_id).startsWith('sandkit-mini__durations')).map(only),
        // a row's own test_cmd / test_framework still override (node --test is no SWE-bench repository)
        rows.find((row) => row.instance_id === 'sandkit-mini__pager-2'),
      ]);
      const out = join(dir, 'out-official');
      const run = await runEval({
        dataset,
        gold: true,
        out,
        sandbox: 'docker',
        workers: 2,
        timeoutSeconds: 300,
      });
      const ids = ['sandkit-mini__durations-1', 'sandkit-mini__durations-2', 'sandkit-mini__pager-2'];
      expect(run.report).toMatchObject({ total_instances: 3, resolved_ids: ids, error_ids: [] });
      for (const id of ids) {
        const log = await readFile(join(out, 'instances', id, 'eval.log'), 'utf8');
        expect(log, id).toMatch(/\/testbed at [0-9a-f]{40}: evaluating in place/);
        expect(log, id).not.toMatch(/git archive/);
        // one writeFile (the script) and one exec: the script's is the only command in the log
        expect(log.match(/: \$ /g), id).toHaveLength(2);
      }
      const output = await readFile(join(out, 'instances/sandkit-mini__durations-1/test_output.txt'), 'utf8');
      expect(output).toMatch(/>>>>> Start Test Output\n[\s\S]*passed[\s\S]*>>>>> End Test Output/);
      expect(await leftovers()).toEqual([]);
    }, 240_000);
  });

  describe('when the image holds the repository at another commit', () => {
    it('is a repository error naming both commits', async () => {
      const dataset = join(dir, 'wrong.jsonl');
      const row = rows.find((r) => r.instance_id === 'sandkit-mini__durations-1') as Record<string, unknown>;
      await writeJsonl(dataset, [
        { ...row, image: 'swebench/sweb.eval.x86_64.sandkit-mini_1776_durations-2:latest' },
      ]);
      const run = await runEval({
        dataset,
        gold: true,
        out: join(dir, 'out-wrong'),
        sandbox: 'docker',
        workers: 1,
        timeoutSeconds: 300,
      });
      expect(run.results.get('sandkit-mini__durations-1')).toMatchObject({
        status: 'error',
        error_kind: 'repo',
      });
      expect(run.results.get('sandkit-mini__durations-1')?.error).toMatch(
        /\/testbed is at [0-9a-f]{40}, not base_commit 3dd86831/,
      );
    }, 120_000);
  });

  describe('when the image has no repository at /testbed', () => {
    it('uploads the tree and resolves a gold instance of each runner', async () => {
      const ids = ['sandkit-mini__pager-2', 'sandkit-mini__durations-1', 'sandkit-mini__ledger-1'];
      const run = await runEval({
        dataset: miniInstances,
        gold: true,
        out: join(dir, 'out'),
        reposDir: mirrors,
        cacheDir: join(dir, 'cache'),
        sandbox: 'docker',
        image: plainImage,
        workers: 2,
        instanceIds: ids,
        timeoutSeconds: 300,
      });
      expect(run.report).toMatchObject({ total_instances: 3, resolved_ids: [...ids].sort(), error_ids: [] });
      for (const id of ids) expect(run.results.get(id)?.patch_method).toBe('git apply');
      const log = await readFile(join(dir, 'out/instances/sandkit-mini__ledger-1/eval.log'), 'utf8');
      expect(log).toMatch(/no repository at \/testbed: uploading the tree/);
      expect(await leftovers()).toEqual([]);
    }, 240_000);
  });
});
