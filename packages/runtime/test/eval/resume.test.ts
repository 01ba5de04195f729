import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalProgress } from '../../src/eval/report/progress.js';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, readJsonl, runCli, tempDir, writeJsonl } from './eval-test-helpers.js';

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

  describe('R06: when the kept results were made from other inputs', () => {
    const ids = ['bk__toy-1', 'bk__toy-2'];
    let dataset: string;
    let out: string;
    /** What --out held after the first run, file by file, to show a refusal changed nothing. */
    let before: Record<string, string>;
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(
          ['results.jsonl', 'run_report.json', 'summary.md'].map(
            async (name) => [name, await readFile(join(out, name), 'utf8')] as const,
          ),
        ),
      );
    const resume = (extra: Record<string, unknown>) =>
      runEval({
        dataset,
        out,
        reposDir: mirrors,
        cacheDir: join(dir, 'cache'),
        workers: 1,
        resume: true,
        ...extra,
      } as Parameters<typeof runEval>[0]);

    beforeAll(async () => {
      dataset = join(dir, 'r06.jsonl');
      await writeJsonl(
        dataset,
        ids.map((id) => ({ ...ledger, instance_id: id })),
      );
      out = join(dir, 'r06-out');
      const first = await runEval({
        dataset,
        gold: true,
        out,
        reposDir: mirrors,
        cacheDir: join(dir, 'cache'),
        workers: 1,
        instanceIds: ['bk__toy-1'],
      });
      expect(first.results.get('bk__toy-1')?.status).toBe('resolved');
      before = await snapshot();
    }, 120_000);

    it("R06: refuses another model's predictions (exit 2 from the CLI), naming the instance and both models, and changes nothing", async () => {
      const predsB = join(dir, 'r06-preds-B.jsonl');
      await writeJsonl(
        predsB,
        ids.map((id) => ({ instance_id: id, model_name_or_path: 'modelB', model_patch: '' })),
      );
      await expect(resume({ predictions: predsB })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(
          /1 kept result was made from other inputs.*bk__toy-1: kept verdict of model "gold", this run's prediction is "modelB".*give a new --out/,
        ),
      });
      expect(await snapshot()).toEqual(before);
      const cli = await runCli([
        'eval',
        '--dataset',
        dataset,
        '--predictions',
        predsB,
        '--repos',
        mirrors,
        '--out',
        out,
        '--resume',
      ]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toMatch(
        /bk__toy-1: kept verdict of model "gold", this run's prediction is "modelB"/,
      );
      expect(cli.stdout).not.toMatch(/Resolved: 1 of 2/);
      expect(await snapshot()).toEqual(before);
    }, 60_000);

    it('R06: refuses the same model name with another patch, another dataset row or another verdict option', async () => {
      const predsPatch = join(dir, 'r06-preds-patch.jsonl');
      await writeJsonl(predsPatch, [
        { instance_id: 'bk__toy-1', model_name_or_path: 'gold', model_patch: `${ledger.patch}\n` },
      ]);
      await expect(resume({ predictions: predsPatch, instanceIds: ['bk__toy-1'] })).rejects.toMatchObject({
        message: expect.stringMatching(/bk__toy-1: another model_patch\)/),
      });
      const changedRow = join(dir, 'r06-changed.jsonl');
      await writeJsonl(
        changedRow,
        ids.map((id) => ({ ...ledger, instance_id: id, PASS_TO_PASS: [] })),
      );
      await expect(
        resume({ dataset: changedRow, gold: true, instanceIds: ['bk__toy-1'] }),
      ).rejects.toMatchObject({ message: expect.stringMatching(/bk__toy-1: another dataset row\)/) });
      await expect(
        resume({ gold: true, timeoutSeconds: 60, instanceIds: ['bk__toy-1'] }),
      ).rejects.toMatchObject({
        message: expect.stringMatching(/bk__toy-1: another timeout_seconds \(1800 then, 60 now\)/),
      });
      await expect(
        resume({ gold: true, patchPolicy: 'strict', instanceIds: ['bk__toy-1'] }),
      ).rejects.toMatchObject({
        message: expect.stringMatching(/another patch_policy \(official then, strict now\)/),
      });
      expect(await snapshot()).toEqual(before);
    }, 60_000);

    it('R06: drops and names a kept record outside the dataset, so results.jsonl matches the report', async () => {
      const results = join(out, 'results.jsonl');
      const stray = { ...JSON.parse(before['results.jsonl'] as string), instance_id: 'zz__hand-1' };
      await writeFile(results, `${before['results.jsonl']}${JSON.stringify(stray)}\n`);
      const progress = recordingProgress();
      const run = await resume({ gold: true, instanceIds: ['bk__toy-1'], progress });
      expect(run.ran).toBe(0);
      expect(progress.notices.join('\n')).toMatch(
        /dropped 1 kept result\(s\) of instances not in this run.*: zz__hand-1/,
      );
      const lines = (await readFile(results, 'utf8')).trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).instance_id)).toEqual(['bk__toy-1']);
      expect(run.report.total_instances).toBe(lines.length);
      expect(JSON.stringify(run.report)).not.toMatch(/zz__hand-1/);
    }, 60_000);

    it('R06: resumes a results.jsonl written before run inputs were recorded, with a notice', async () => {
      const record = JSON.parse(before['results.jsonl'] as string);
      expect(record.run_inputs).toMatchObject({
        options: { patch_policy: 'official', timeout_seconds: 1800 },
      });
      delete record.run_inputs;
      await writeFile(join(out, 'results.jsonl'), `${JSON.stringify(record)}\n`);
      const progress = recordingProgress();
      const run = await resume({ gold: true, instanceIds: ['bk__toy-1'], progress });
      expect(run.ran).toBe(0);
      expect(run.results.get('bk__toy-1')?.status).toBe('resolved');
      expect(progress.notices.join('\n')).toMatch(
        /1 kept result\(s\) were written by an older sandkit.*bk__toy-1/,
      );
      // an old record of another model is still refused on its model name
      await writeFile(
        join(out, 'results.jsonl'),
        `${JSON.stringify({ ...record, model_name_or_path: 'modelA' })}\n`,
      );
      await expect(resume({ gold: true, instanceIds: ['bk__toy-1'] })).rejects.toMatchObject({
        message: expect.stringMatching(/kept verdict of model "modelA"/),
      });
    }, 60_000);
  });
});
