import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceResult } from '../../src/eval/instance/eval-result.js';
import { runEval } from '../../src/eval/run-eval.js';
import {
  buildMirrors,
  miniInstances,
  miniWrongPredictions,
  readJsonl,
  tempDir,
  writeJsonl,
} from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
let instances: Array<Record<string, unknown> & { instance_id: string; base_commit: string; repo: string }>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('mini'));
  mirrors = join(dir, 'mirrors');
  instances = await readJsonl(miniInstances);
});
afterAll(() => cleanup());

describe('the embedded dataset (datasets/swebench-mini)', () => {
  it('builds repositories whose commits are exactly the base_commit of every instance', () => {
    const built = buildMirrors(mirrors);
    expect(built.map((repo) => repo.repo)).toEqual([
      'sandkit-mini/durations',
      'sandkit-mini/ledger',
      'sandkit-mini/pager',
    ]);
    for (const instance of instances) {
      const repo = built.find((r) => r.repo === instance.repo);
      expect(Object.values(repo?.commits ?? {})).toContain(instance.base_commit);
    }
    expect(new Set(instances.map((i) => i.repo)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(instances.map((i) => i.test_framework))).toEqual(new Set(['node', 'pytest', 'unittest']));
  });

  it('grades the wrong predictions as the expected mix, and a no-op patch fails every FAIL_TO_PASS test but no PASS_TO_PASS test', async () => {
    // the no-op copies prove the FAIL_TO_PASS / PASS_TO_PASS lists honest: without the fix, every
    // listed FAIL_TO_PASS test fails and every PASS_TO_PASS test passes
    const noop = instances.map((instance) => ({ ...instance, instance_id: `${instance.instance_id}-noop` }));
    const dataset = join(dir, 'dataset.jsonl');
    await writeJsonl(dataset, [...instances, ...noop]);
    const predictions = join(dir, 'predictions.jsonl');
    const noopPatch =
      'diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1 @@\n+looked, changed nothing\n';
    await writeJsonl(predictions, [
      ...(await readJsonl(miniWrongPredictions)),
      ...noop.map((i) => ({
        instance_id: i.instance_id,
        model_name_or_path: 'noop',
        model_patch: noopPatch,
      })),
    ]);
    const out = join(dir, 'out-wrong');
    const run = await runEval({
      dataset,
      predictions,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      workers: 2,
      timeoutSeconds: 300,
      patchPolicy: 'strict',
    });

    const status = (id: string) => run.results.get(id)?.status;
    expect(status('sandkit-mini__pager-1')).toBe('error');
    expect(run.results.get('sandkit-mini__pager-1')?.error_kind).toBe('patch_apply');
    expect(status('sandkit-mini__pager-2')).toBe('resolved');
    expect(status('sandkit-mini__durations-1')).toBe('unresolved');
    expect(status('sandkit-mini__durations-2')).toBe('resolved');
    expect(status('sandkit-mini__ledger-1')).toBe('unresolved');
    expect(status('sandkit-mini__ledger-2')).toBe('empty_patch');
    expect(run.report).toMatchObject({
      total_instances: 12,
      submitted_instances: 12,
      resolved_ids: ['sandkit-mini__durations-2', 'sandkit-mini__pager-2'],
      error_ids: ['sandkit-mini__pager-1'],
      patch_apply_error_ids: ['sandkit-mini__pager-1'],
      infra_error_ids: [],
      empty_patch_ids: ['sandkit-mini__ledger-2'],
      schema_version: 2,
    });

    const report = JSON.parse(
      await readFile(join(out, 'instances/sandkit-mini__durations-1/report.json'), 'utf8'),
    );
    expect(report['sandkit-mini__durations-1']).toMatchObject({
      patch_successfully_applied: true,
      resolved: false,
      tests_status: { PASS_TO_PASS: { failure: ['tests/test_format.py::test_format[5400-1h 30m]'] } },
    });
    const half = JSON.parse(
      await readFile(join(out, 'instances/sandkit-mini__ledger-1/report.json'), 'utf8'),
    );
    expect(half['sandkit-mini__ledger-1'].tests_status.FAIL_TO_PASS.success).toHaveLength(1);
    expect(half['sandkit-mini__ledger-1'].tests_status.FAIL_TO_PASS.failure).toHaveLength(1);
    const script = await readFile(join(out, 'instances/sandkit-mini__pager-1/eval.sh'), 'utf8');
    expect(script).toMatch(/patch --batch --forward --fuzz=0/);
    const applyLog = await readFile(join(out, 'instances/sandkit-mini__pager-1/eval.log'), 'utf8');
    expect(applyLog).toMatch(/model patch: exit 1/);

    for (const instance of noop) {
      const result = run.results.get(instance.instance_id) as InstanceResult;
      const lists = JSON.parse(
        await readFile(join(out, 'instances', instance.instance_id, 'report.json'), 'utf8'),
      )[instance.instance_id].tests_status;
      expect(result.status, instance.instance_id).toBe('unresolved');
      expect(lists.FAIL_TO_PASS.success, instance.instance_id).toEqual([]);
      expect(lists.PASS_TO_PASS.failure, instance.instance_id).toEqual([]);
      expect(result.missing_tests, instance.instance_id).toEqual([]);
    }
  }, 240_000);

  it('applies the stale-context prediction with patch --fuzz=5 under the official patch chain, and says so', async () => {
    const out = join(dir, 'out-official');
    const run = await runEval({
      dataset: miniInstances,
      predictions: miniWrongPredictions,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      instanceIds: ['sandkit-mini__pager-1'],
      workers: 1,
      timeoutSeconds: 300,
    });
    expect(run.results.get('sandkit-mini__pager-1')).toMatchObject({
      status: 'resolved',
      patch_method: 'patch --fuzz=5',
    });
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(
      /\| sandkit-mini__pager-1 \| resolved \|[^\n]*\| patch --fuzz=5 \|/,
    );
    const log = await readFile(join(out, 'instances/sandkit-mini__pager-1/eval.log'), 'utf8');
    expect(log).toMatch(/::sandkit-fallback git apply --reject/);
    const report = JSON.parse(
      await readFile(join(out, 'instances/sandkit-mini__pager-1/report.json'), 'utf8'),
    );
    expect(report['sandkit-mini__pager-1']).toMatchObject({
      resolved: true,
      patch_applied_with: 'patch --fuzz=5',
    });
  }, 120_000);
});
