/** `sandkit eval` on bad input: a bad dataset or predictions file, a timeout no timer holds, an --out that cannot be one. */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMirrors,
  miniInstances,
  readJsonl,
  runCli,
  runCliWithPermissions,
  tempDir,
  writeJsonl,
} from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
let rows: Array<Record<string, unknown>>;
const one = 'sandkit-mini__durations-1';
const two = 'sandkit-mini__durations-2';

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('bad-input'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
  rows = await readJsonl(miniInstances);
});
afterAll(() => cleanup());

const row = (id: string) => rows.find((r) => r.instance_id === id) as Record<string, unknown>;

function evalArgs(dataset: string, out: string, ...more: string[]): string[] {
  return [
    'eval',
    '--dataset',
    dataset,
    '--repos',
    mirrors,
    '--cache-dir',
    join(dir, 'cache'),
    '--out',
    out,
    ...more,
  ];
}

describe('sandkit eval with a bad dataset', () => {
  it('R05: refuses a dataset with a cut line before anything runs (exit 2, file and line named); --skip-invalid counts the row as a dataset error', async () => {
    const dataset = join(dir, 'mid-bad.jsonl');
    await writeFile(
      dataset,
      `${JSON.stringify(row(one))}\n{"instance_id": "${two}", "repo": "sandkit-mini/durations", \n${JSON.stringify(row('sandkit-mini__ledger-1'))}\n`,
    );
    const out = join(dir, 'r05');
    const refused = await runCli(evalArgs(dataset, out, '--gold'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${dataset} line 2: not valid JSON`);
    expect(refused.stderr).toContain('--skip-invalid');
    expect(existsSync(join(out, 'results.jsonl'))).toBe(false);

    const skipped = await runCli(
      evalArgs(dataset, out, '--gold', '--skip-invalid', '--instance-ids', one, two),
    );
    expect(skipped.code).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'run_report.json'), 'utf8'));
    expect(report).toMatchObject({
      total_instances: 2,
      resolved_ids: [one],
      error_ids: [two],
      dataset_error_ids: [two],
      infra_error_ids: [],
      resolved_rate: 0.5,
    });
    const summary = await readFile(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('Resolved: 1 of 2');
    expect(summary).toMatch(new RegExp(`Dataset errors: 1 row\\(s\\).*${two}`));
  }, 120_000);

  it('R18: a missing FAIL_TO_PASS says it is missing and what to give, and is refused with exit 2', async () => {
    const dataset = join(dir, 'no-f2p.jsonl');
    const { FAIL_TO_PASS: _dropped, ...rest } = row(one);
    await writeJsonl(dataset, [rest]);
    const cli = await runCli(evalArgs(dataset, join(dir, 'r18'), '--gold'));
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(
      `line 1 (${one}): FAIL_TO_PASS is missing: give a list of test ids (a JSON array or a JSON-encoded string`,
    );
    expect(cli.stderr).not.toContain('Invalid input');
  });

  it('R07: one id on differing rows is refused (both rows named as ignored), and with --skip-invalid is a dataset error, not an infrastructure error (exit 0)', async () => {
    const dataset = join(dir, 'dup.jsonl');
    await writeJsonl(dataset, [row(one), { ...row(one), FAIL_TO_PASS: [], PASS_TO_PASS: [] }, row(two)]);
    const refused = await runCli(evalArgs(dataset, join(dir, 'r07a'), '--gold'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`line 2: instance_id ${one} appears more than once`);
    expect(refused.stderr).toContain('both rows are ignored');
    expect(refused.stderr).not.toContain('the first is used');

    const out = join(dir, 'r07b');
    const skipped = await runCli(evalArgs(dataset, out, '--gold', '--skip-invalid', '--instance-ids', one));
    expect(skipped.stderr).not.toContain('infrastructure');
    expect(skipped.code).toBe(0);
    const [result] = await readJsonl(join(out, 'results.jsonl'));
    expect(result).toMatchObject({
      instance_id: one,
      status: 'error',
      error_kind: 'dataset',
      infra_error: false,
    });
  });

  it('R07: a row repeated whole counts once and runs', async () => {
    const dataset = join(dir, 'same-twice.jsonl');
    await writeJsonl(dataset, [row(one), row(one)]);
    const out = join(dir, 'r07c');
    const cli = await runCli(evalArgs(dataset, out, '--gold'));
    expect(cli.code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'run_report.json'), 'utf8'))).toMatchObject({
      total_instances: 1,
      resolved_ids: [one],
      invalid_records: [],
    });
  }, 120_000);
});

describe('sandkit eval with bad predictions', () => {
  it('R08: names a prediction for an id not in the dataset (stderr and invalid_records)', async () => {
    const dataset = join(dir, 'r08-ds.jsonl');
    await writeJsonl(dataset, [row(one)]);
    const preds = join(dir, 'preds-unknown.jsonl');
    await writeJsonl(preds, [
      { instance_id: one, model_name_or_path: 'm', model_patch: '' },
      { instance_id: 'nope__x-1', model_name_or_path: 'm', model_patch: 'x' },
    ]);
    const out = join(dir, 'r08a');
    const cli = await runCli(evalArgs(dataset, out, '--predictions', preds));
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain('a prediction for nope__x-1, which is not in the dataset');
    const report = JSON.parse(await readFile(join(out, 'run_report.json'), 'utf8'));
    expect(report.invalid_records.map((e: { instanceId: string }) => e.instanceId)).toEqual(['nope__x-1']);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain('nope__x-1');
  });

  it('R08: refuses two differing predictions for one id (exit 2, both lines named); an exact repeat counts once with a notice', async () => {
    const dataset = join(dir, 'r08-ds2.jsonl');
    await writeJsonl(dataset, [row(one)]);
    const dup = join(dir, 'preds-dup.jsonl');
    await writeJsonl(dup, [
      { instance_id: one, model_name_or_path: 'm', model_patch: row(one).patch },
      { instance_id: one, model_name_or_path: 'm', model_patch: '' },
    ]);
    const refused = await runCli(evalArgs(dataset, join(dir, 'r08b'), '--predictions', dup));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `line 2: a second, different prediction for ${one} (the first is at line 1)`,
    );

    const same = join(dir, 'preds-same.jsonl');
    await writeJsonl(same, [
      { instance_id: one, model_name_or_path: 'm', model_patch: '' },
      { instance_id: one, model_name_or_path: 'm', model_patch: '' },
    ]);
    const cli = await runCli(evalArgs(dataset, join(dir, 'r08c'), '--predictions', same));
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain(`line 2: the prediction for ${one} repeats line 1 exactly; it counts once`);
  });
});

describe('sandkit eval with options no run can have', () => {
  it.each(['2200000', '1e9', 'Infinity'])(
    'R09: refuses --timeout %s at parse time with exit 2, naming the limit',
    async (timeout) => {
      const cli = await runCli(evalArgs(miniInstances, join(dir, 'r09'), '--gold', '--timeout', timeout));
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain('--timeout');
      expect(cli.stderr).toContain('up to 2147423');
      expect(existsSync(join(dir, 'r09'))).toBe(false);
    },
  );

  it('R10: an --out that is a file, or lies under a file, exits 2 saying so', async () => {
    const file = join(dir, 'out-file');
    await writeFile(file, 'x');
    const [isFile, underFile] = await Promise.all([
      runCli(evalArgs(miniInstances, file, '--gold')),
      runCli(evalArgs(miniInstances, join(file, 'sub'), '--gold')),
    ]);
    expect(isFile.code).toBe(2);
    expect(isFile.stderr).toContain(`--out ${file} is a file; give a directory`);
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toContain(`cannot be created: ${file} is a file, not a directory`);
  });

  it('R10: an --out the user cannot write exits 2 naming the cause, not ENOENT or EACCES', async () => {
    const locked = join(dir, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o555);
    const args = ['eval', '--dataset', miniInstances, '--gold', '--out', join(locked, 'out')];
    const cli = await runCliWithPermissions(args);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(
      `--out ${join(locked, 'out')} cannot be created: no permission to write ${locked}`,
    );
  });
});
