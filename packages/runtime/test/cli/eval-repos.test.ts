import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDatasetDir } from '../../src/example-dataset/build-example-repos.js';
import { miniInstances, readJsonl, runCli, tempDir } from '../eval/eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('eval-repos'));
});
afterAll(() => cleanup());

describe('sandkit eval --repos', () => {
  describe("when DIR/<owner__name> exists but is not a git repository (the embedded dataset's sources folder)", () => {
    it('fails the instance as a repo error saying so, what --repos expects and where --example builds the mirrors', async () => {
      const sources = join(exampleDatasetDir, 'repos');
      const cache = join(dir, 'cache');
      const out = join(dir, 'out');
      const run = await runCli([
        'eval',
        '--dataset',
        miniInstances,
        '--gold',
        '--repos',
        sources,
        '--cache-dir',
        cache,
        '--instance-ids',
        'sandkit-mini__pager-1',
        '--out',
        out,
      ]);
      expect(run.code).toBe(3);
      const [result] = await readJsonl(join(out, 'results.jsonl'));
      expect(result).toMatchObject({
        instance_id: 'sandkit-mini__pager-1',
        status: 'error',
        error_kind: 'repo',
      });
      const error = String(result?.error);
      expect(error).toContain(
        `--repos: ${join(sources, 'sandkit-mini__pager')} exists but is not a git repository or mirror`,
      );
      expect(error).toContain('--repos expects DIR/sandkit-mini__pager as a git clone (bare or not)');
      expect(error).toContain(`sandkit eval --example builds them into ${join(cache, 'swebench-mini')}`);
      expect(error).not.toMatch(/does not exist/);
      expect(run.stdout).toContain('exists but is not a git repository or mirror');
      // nothing was made in the sources folder
      expect(existsSync(join(sources, 'sandkit-mini__pager', '.git'))).toBe(false);
    }, 60_000);
  });
});
