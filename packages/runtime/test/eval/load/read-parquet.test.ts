import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadInstances } from '../../../src/eval/load/instance-loader.js';
import { tempDir } from '../eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('parquet'));
});
afterEach(() => cleanup());

/** A dataset file in the shape Hugging Face publishes SWE-bench (string columns, lists as JSON text). */
async function writeDatasetParquet(file: string, rows: Array<Record<string, string>>): Promise<void> {
  const columns = Object.keys(rows[0] as object);
  const buffer = parquetWriteBuffer({
    columnData: columns.map((name) => ({
      name,
      data: rows.map((row) => row[name] as string),
      type: 'STRING' as const,
    })),
  });
  await writeFile(file, new Uint8Array(buffer));
}

const row = (id: string, extra: Record<string, string> = {}) => ({
  repo: 'psf/requests',
  instance_id: id,
  base_commit: 'b'.repeat(40),
  patch: 'diff --git a/requests/x.py b/requests/x.py\n',
  test_patch: 'diff --git a/test_requests.py b/test_requests.py\n',
  problem_statement: 'Unicode — “quotes” kept',
  version: '2.0',
  FAIL_TO_PASS: '["test_requests.py::test_a[/one.txt]"]',
  PASS_TO_PASS: '[]',
  environment_setup_commit: 'c'.repeat(40),
  ...extra,
});

describe('loadInstances', () => {
  describe('when the dataset is a Hugging Face parquet file', () => {
    it('reads every row as an instance, lists decoded from their JSON text', async () => {
      const file = join(dir, 'test-00000-of-00001.parquet');
      await writeDatasetParquet(file, [
        row('psf__requests-1'),
        row('psf__requests-2', { FAIL_TO_PASS: '[nope' }),
      ]);
      const { instances, errors } = await loadInstances(file);
      expect(instances).toHaveLength(1);
      expect(instances[0]).toMatchObject({
        instance_id: 'psf__requests-1',
        version: '2.0',
        FAIL_TO_PASS: ['test_requests.py::test_a[/one.txt]'],
        PASS_TO_PASS: [],
        problem_statement: 'Unicode — “quotes” kept',
      });
      expect(errors).toEqual([
        expect.objectContaining({ position: 'row 1', instanceId: 'psf__requests-2', field: 'FAIL_TO_PASS' }),
      ]);
    });
  });

  describe('when a file starts with the parquet magic but is cut short', () => {
    it('reports the whole file with how to fix it', async () => {
      const file = join(dir, 'broken.parquet');
      await writeFile(file, 'PAR1 this is not parquet');
      const { instances, errors } = await loadInstances(file);
      expect(instances).toEqual([]);
      expect(errors[0]?.message).toMatch(/not a readable Parquet file .*export the split as JSONL/);
    });
  });
});
