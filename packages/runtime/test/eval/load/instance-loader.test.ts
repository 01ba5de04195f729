import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadInstances } from '../../../src/eval/load/instance-loader.js';
import { goldPredictions, loadPredictions } from '../../../src/eval/load/prediction-loader.js';
import { tempDir } from '../eval-test-helpers.js';

const instance = (id: string, extra: Record<string, unknown> = {}) => ({
  instance_id: id,
  repo: 'octo/widgets',
  base_commit: 'a'.repeat(40),
  patch: 'diff --git a/x b/x\n',
  test_patch: 'diff --git a/t b/t\n',
  FAIL_TO_PASS: '["tests/t.py::test_a[x y]"]',
  PASS_TO_PASS: ['tests/t.py::test_b'],
  version: 1.2,
  problem_statement: 'kept as is',
  ...extra,
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('loader'));
});
afterEach(() => cleanup());

describe('loadInstances', () => {
  describe('when the file is JSONL with one bad record among good ones', () => {
    it('returns the good ones and names the bad line, instance id and field', async () => {
      const file = join(dir, 'instances.jsonl');
      const lines = [
        JSON.stringify(instance('octo__widgets-1')),
        JSON.stringify(instance('octo__widgets-2', { FAIL_TO_PASS: '[not json' })),
        '{"instance_id": "octo__widgets-3", "repo": ',
        JSON.stringify(instance('octo__widgets-4', { base_commit: undefined })),
        JSON.stringify(instance('octo__widgets-5')),
      ];
      await writeFile(file, `${lines.join('\n')}\n`);
      const { instances, errors } = await loadInstances(file);
      expect(instances.map((i) => i.instance_id)).toEqual(['octo__widgets-1', 'octo__widgets-5']);
      expect(instances[0]).toMatchObject({
        FAIL_TO_PASS: ['tests/t.py::test_a[x y]'],
        PASS_TO_PASS: ['tests/t.py::test_b'],
        version: '1.2',
        problem_statement: 'kept as is',
      });
      expect(errors.map((e) => [e.position, e.instanceId, e.field])).toEqual([
        ['line 3', 'octo__widgets-3', null],
        ['line 2', 'octo__widgets-2', 'FAIL_TO_PASS'],
        ['line 4', 'octo__widgets-4', 'base_commit'],
      ]);
      expect(errors[1]?.message).toMatch(
        /line 2 \(octo__widgets-2\): field FAIL_TO_PASS must be a JSON-encoded list/,
      );
    });
  });

  describe('when rows carry only the fields grading reads (no patch, no test_patch)', () => {
    it("rejects them for 'eval' and accepts them for 'grade', the absent patches empty", async () => {
      const file = join(dir, 'grade-only.jsonl');
      const row = instance('octo__widgets-1', { patch: undefined, test_patch: undefined });
      await writeFile(file, `${JSON.stringify(row)}\n`);
      const forEval = await loadInstances(file);
      expect(forEval.instances).toEqual([]);
      expect(forEval.errors.map((e) => e.field)).toEqual(['patch']);
      const forGrade = await loadInstances(file, { purpose: 'grade' });
      expect(forGrade.errors).toEqual([]);
      expect(forGrade.instances[0]).toMatchObject({ patch: '', test_patch: '', version: '1.2' });
    });
  });

  describe('when the file is a JSON array', () => {
    it('R07: names bad records by index and drops every row of an instance_id on differing rows, saying so', async () => {
      const file = join(dir, 'instances.json');
      await writeFile(
        file,
        JSON.stringify([
          instance('a-1'),
          instance('a-1', { FAIL_TO_PASS: [] }),
          instance('../evil'),
          instance('b-1'),
        ]),
      );
      const { instances, errors } = await loadInstances(file);
      expect(instances.map((i) => i.instance_id)).toEqual(['b-1']);
      expect(errors.map((e) => [e.position, e.field])).toEqual([
        ['index 2', 'instance_id'],
        ['index 1', 'instance_id'],
      ]);
      expect(errors[1]?.message).toContain(
        'instance_id a-1 appears more than once, with other fields than at index 0; both rows are ignored',
      );
    });

    it('R07: counts a row repeated whole once, without an error', async () => {
      const file = join(dir, 'twice.json');
      await writeFile(file, JSON.stringify([instance('a-1'), instance('a-1')]));
      const { instances, errors } = await loadInstances(file);
      expect(instances.map((i) => i.instance_id)).toEqual(['a-1']);
      expect(errors).toEqual([]);
    });
  });

  describe('when the JSON does not parse', () => {
    it('names the file and the line of a bad JSONL line, and says how to fix it', async () => {
      const file = join(dir, 'cut.jsonl');
      await writeFile(file, `${JSON.stringify(instance('c-1'))}\n{"instance_id": "c-2", "repo": \n`);
      const { errors } = await loadInstances(file);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toMatch(
        new RegExp(
          `^${file.replace(/[.*+?^$()|[\]\\]/g, '\\$&')} line 2: not valid JSON \\(.+\\); in JSON Lines each line is one whole JSON object: fix that line`,
        ),
      );
    });

    it('names the file, line and column of a JSON array syntax error', async () => {
      const file = join(dir, 'bad.json');
      await writeFile(file, `[\n  ${JSON.stringify(instance('d-1'))},\n  {"instance_id": "d-2",}\n]\n`);
      const { instances, errors } = await loadInstances(file);
      expect(instances).toEqual([]);
      expect(errors.map((e) => e.position)).toEqual(['line 3']);
      expect(errors[0]?.message).toContain(`${file} line 3 column 25: not a valid JSON array (`);
      expect(errors[0]?.message).toContain('fix the JSON there, or write one object per line (JSON Lines)');
    });

    it('names the end of a JSON array cut short', async () => {
      const file = join(dir, 'short.json');
      await writeFile(file, `[\n  ${JSON.stringify(instance('e-1'))},\n`);
      const { errors } = await loadInstances(file);
      expect(errors[0]?.message).toMatch(/short\.json line 2 column \d+: not a valid JSON array \(/);
    });
  });

  describe('when the file starts with a UTF-8 byte order mark', () => {
    it('reads a JSONL file, a JSON array and a predictions file as without it', async () => {
      const bom = '\uFEFF';
      await writeFile(join(dir, 'a.jsonl'), `${bom}${JSON.stringify(instance('octo__widgets-1'))}\r\n`);
      await writeFile(join(dir, 'a.json'), `${bom}[${JSON.stringify(instance('octo__widgets-2'))}]`);
      await writeFile(
        join(dir, 'p.jsonl'),
        `${bom}${JSON.stringify({ instance_id: 'octo__widgets-1', model_patch: 'x', model_name_or_path: 'm' })}\n`,
      );
      for (const [file, id] of [
        ['a.jsonl', 'octo__widgets-1'],
        ['a.json', 'octo__widgets-2'],
      ] as const) {
        const { instances, errors } = await loadInstances(join(dir, file));
        expect(errors).toEqual([]);
        expect(instances.map((i) => i.instance_id)).toEqual([id]);
      }
      const predictions = await loadPredictions(join(dir, 'p.jsonl'));
      expect(predictions.errors).toEqual([]);
      expect([...predictions.predictions.keys()]).toEqual(['octo__widgets-1']);
    });
  });

  describe('when the file does not exist', () => {
    it('throws SandkitError invalid_option', async () => {
      await expect(loadInstances(join(dir, 'missing.jsonl'))).rejects.toMatchObject({
        code: 'invalid_option',
      });
    });
  });
});

describe('loadPredictions', () => {
  it('R08: keeps null patches, reports a record without model_patch, and uses neither of two differing predictions for one id', async () => {
    const file = join(dir, 'preds.jsonl');
    const lines = [
      { instance_id: 'a-1', model_name_or_path: 'm', model_patch: 'old' },
      { instance_id: 'a-2', model_name_or_path: 'm', model_patch: null },
      { instance_id: 'a-3', model_name_or_path: 'm' },
      { instance_id: 'a-1', model_name_or_path: 'm', model_patch: 'new' },
      { instance_id: 'a-2', model_name_or_path: 'm', model_patch: null },
    ];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const { predictions, errors, notices } = await loadPredictions(file);
    expect(predictions.has('a-1')).toBe(false);
    expect(predictions.get('a-2')?.model_patch).toBeNull();
    expect(errors.map((e) => [e.position, e.instanceId, e.field])).toEqual([
      ['line 3', 'a-3', 'model_patch'],
      ['line 4', 'a-1', 'instance_id'],
    ]);
    expect(errors[1]?.message).toContain(
      'a second, different prediction for a-1 (the first is at line 1); neither is used',
    );
    expect(notices).toEqual([
      `${file} line 5: the prediction for a-2 repeats line 2 exactly; it counts once`,
    ]);
  });

  it('names the predictions file and line of a line that does not parse', async () => {
    const file = join(dir, 'preds-bad.jsonl');
    await writeFile(
      file,
      '{"instance_id": "a-1", "model_name_or_path": "m", "model_patch": "x"}\n{"instance_id": "a-2", model_patch: 1}\n',
    );
    const { errors } = await loadPredictions(file);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringContaining(`${file} line 2: not valid JSON (`),
    ]);
  });

  it('makes gold predictions from the instances’ own patches', async () => {
    const file = join(dir, 'instances.jsonl');
    await writeFile(file, JSON.stringify(instance('g-1')));
    const { instances } = await loadInstances(file);
    expect(goldPredictions(instances).get('g-1')).toEqual({
      instance_id: 'g-1',
      model_name_or_path: 'gold',
      model_patch: 'diff --git a/x b/x\n',
    });
  });
});
