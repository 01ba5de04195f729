import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalProgress } from '../../src/eval/report/progress.js';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, readJsonl, tempDir, writeJsonl } from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
let ledger: Record<string, unknown>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('resume'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
  const all = await readJsonl(miniInstances);
  ledger = all.find((i) => i.instance_id === 'sandkit-mini__ledger-2') as Record<string, unknown>;
});
afterAll(() => cleanup());

function recordingProgress(): EvalProgress & { notices: string[] } {
  const notices: string[] = [];
  return { notices, start() {}, finished() {}, notice: (m) => notices.push(m), stop() {} };
}

describe('runEval with resume', () => {
  it('C18: reruns errored, cut-off and missing instances, keeps finished ones, and ignores a partial last line', async () => {
    const ids = ['a__a-1', 'b__b-2', 'c__c-3', 'd__d-4', 'e__e-5'];
    const dataset = join(dir, 'c18.jsonl');
    await writeJsonl(
      dataset,
      ids.map((id) => ({ ...ledger, instance_id: id })),
    );
    const out = join(dir, 'c18-out');
    const first = await runEval({
      dataset,
      gold: true,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      workers: 1,
      instanceIds: ['a__a-1'],
    });
    expect(first.ran).toBe(1);
    const kept = [
      '{"instance_id":"a__a-1","status":"resolved"}',
      '{"instance_id":"b__b-2","status":"error","error":"container create: 429 Too Many Requests"}',
      '{"instance_id":"c__c-3","status":"unresolved"}',
      '{"instance_id":"d__d-4","sta',
    ];
    await writeFile(join(out, 'results.jsonl'), kept.join('\n'));

    const progress = recordingProgress();
    const run = await runEval({
      dataset,
      gold: true,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      workers: 2,
      resume: true,
      progress,
    });
    expect(run.ran).toBe(3);
    expect(progress.notices.join('\n')).toMatch(/line 4 ignored: not complete JSON/);
    expect(progress.notices.join('\n')).toMatch(/rerunning 1 errored instance\(s\): b__b-2/);
    const lines = (await readFile(join(out, 'results.jsonl'), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, 2)).toEqual([kept[0], kept[2]]);
    const records = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(records.map((r) => r.instance_id).sort()).toEqual(ids);
    expect(
      records.filter((r) => ['b__b-2', 'd__d-4', 'e__e-5'].includes(r.instance_id)).map((r) => r.status),
    ).toEqual(['resolved', 'resolved', 'resolved']);
    expect(existsSync(join(out, 'instances/c__c-3'))).toBe(false);
    expect(run.report).toMatchObject({
      resolved_ids: ['a__a-1', 'b__b-2', 'd__d-4', 'e__e-5'],
      unresolved_ids: ['c__c-3'],
      error_ids: [],
      incomplete_ids: [],
    });

    const again = await runEval({
      dataset,
      gold: true,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      resume: true,
      progress,
    });
    expect(again.ran).toBe(0);
    expect(progress.notices.at(-1)).toMatch(/nothing to do/);
    expect(await readFile(join(out, 'results.jsonl'), 'utf8')).toBe(`${lines.join('\n')}`);
  }, 180_000);

  it('C18: keeps infrastructure errors apart from unresolved and out of the resolved rate', async () => {
    const dataset = join(dir, 'infra.jsonl');
    await writeJsonl(dataset, [
      { ...ledger, instance_id: 'ok-1' },
      { ...ledger, instance_id: 'ghost-1', repo: 'nobody/ghost' },
      { ...ledger, instance_id: 'bad-1', FAIL_TO_PASS: 'not a list' },
    ]);
    const out = join(dir, 'infra-out');
    const run = await runEval({
      dataset,
      gold: true,
      out,
      reposDir: mirrors,
      cacheDir: join(dir, 'cache'),
      workers: 2,
      skipInvalid: true,
      // the archive mode (git archive → tar through writeFile → one-commit repo) on the local adapter
      checkout: 'archive',
    });
    expect(run.results.get('ok-1')?.status).toBe('resolved');
    expect(await readFile(join(out, 'instances/ok-1/eval.log'), 'utf8')).toMatch(
      /git archive [0-9a-f]{40} on the host/,
    );
    expect(run.results.get('ghost-1')).toMatchObject({
      status: 'error',
      error_kind: 'repo',
      infra_error: true,
    });
    expect(run.results.get('ghost-1')?.error).toMatch(/no mirror of nobody\/ghost/);
    // R07: a bad row skipped by skipInvalid is the dataset's error: in the total, not infrastructure
    expect(run.results.get('bad-1')).toMatchObject({
      status: 'error',
      error_kind: 'dataset',
      infra_error: false,
    });
    expect(run.report).toMatchObject({
      total_instances: 3,
      resolved_ids: ['ok-1'],
      unresolved_ids: [],
      error_ids: ['bad-1', 'ghost-1'],
      infra_error_ids: ['ghost-1'],
      dataset_error_ids: ['bad-1'],
      resolved_rate: 0.5,
    });
    expect(run.report.invalid_records[0]?.message).toMatch(/line 3 \(bad-1\): field FAIL_TO_PASS/);
    const summary = await readFile(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/50\.0% leaving out 1 infrastructure errors/);
  }, 120_000);
});
