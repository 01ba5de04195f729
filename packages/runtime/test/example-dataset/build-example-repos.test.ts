import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExampleRepos, exampleDatasetDir } from '../../src/example-dataset/build-example-repos.js';
import { tempDir } from '../eval/eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('build-repos'));
});
afterAll(() => cleanup());

describe('buildExampleRepos', () => {
  describe('when the dataset lies under node_modules (an installed @sandkit/runtime)', () => {
    it('builds the same commits as from the repository', () => {
      const installed = join(dir, 'app/node_modules/@sandkit/runtime/datasets/swebench-mini');
      cpSync(exampleDatasetDir, installed, { recursive: true });
      const fromRepo = buildExampleRepos(join(dir, 'from-repo'));
      const fromInstall = buildExampleRepos(join(dir, 'from-install'), installed);
      expect(fromInstall.map((repo) => repo.commits)).toEqual(fromRepo.map((repo) => repo.commits));
      expect(fromRepo).toHaveLength(3);
    });
  });
});
