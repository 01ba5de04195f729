import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutputDir } from '../../../src/view/load/read-output-dir.js';
import { tempDir } from '../../eval/eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('view-read'));
});
afterAll(() => cleanup());

describe('readOutputDir', () => {
  describe('when the directory is no output of eval, grade or run', () => {
    it('throws SandkitError invalid_option saying which directories it takes', async () => {
      await mkdir(join(dir, 'empty'));
      await expect(readOutputDir(join(dir, 'empty'), dir)).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(/neither results.jsonl .* nor run.json/),
      });
    });
  });

  describe('when it holds the gold/ and wrong/ runs of sandkit eval --example', () => {
    it('throws SandkitError invalid_option naming both and the comparison', async () => {
      for (const sub of ['gold', 'wrong']) {
        await mkdir(join(dir, 'example', sub), { recursive: true });
        await writeFile(join(dir, 'example', sub, 'results.jsonl'), '');
      }
      await expect(readOutputDir(join(dir, 'example'), dir)).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringContaining(
          `sandkit view ${join(dir, 'example', 'gold')} ${join(dir, 'example', 'wrong')}`,
        ),
      });
    });
  });

  describe('when a results.jsonl line is cut', () => {
    it('throws SandkitError invalid_option naming the file and line', async () => {
      await mkdir(join(dir, 'cut'));
      await writeFile(
        join(dir, 'cut', 'results.jsonl'),
        '{"instance_id":"a__b-1","status":"resolved"}\n{"instance_',
      );
      await expect(readOutputDir(join(dir, 'cut'), dir)).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringContaining(`${join(dir, 'cut', 'results.jsonl')}:2 is not JSON`),
      });
    });
  });
});
