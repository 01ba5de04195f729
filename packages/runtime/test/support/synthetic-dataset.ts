/**
 * A synthetic SWE-bench-style dataset for scale simulations: one tiny Python repository
 * (`sim/calc`, a `clamp` function whose upper bound is wrong) and N instances of the same task,
 * each graded with a real `python3 -m unittest` run. An optional `sleep` before the tests stands
 * for the test time a vendor's machine would spend: it costs the host no CPU, as a remote
 * sandbox's work would not.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededStream, uniformBetween } from './seeded-random.js';

/** Options of {@link buildSyntheticDataset}. */
export interface SyntheticDatasetOptions {
  /** Number of instances (ids `sim__calc-0000` …). */
  instances: number;
  /** Seed of the per-instance test times. */
  seed: number;
  /** Vendor-side test time slept before the tests, uniform in [min, max), in seconds; `{ min: 0, max: 0 }` for none. */
  testSeconds: { min: number; max: number };
}

/** What {@link buildSyntheticDataset} made. */
export interface SyntheticDataset {
  /** The instances file (JSONL). */
  dataset: string;
  /** The `--repos` directory holding `sim__calc`. */
  reposDir: string;
  /** Every instance id, in file order. */
  instanceIds: string[];
  /** The test time slept by each instance, in seconds, by id. */
  testSeconds: Map<string, number>;
}

const base = {
  'calc.py': `def clamp(value, low, high):
    """value limited to the closed range [low, high]."""
    if value < low:
        return low
    if value > high:
        return value
    return value
`,
  'tests/__init__.py': '',
  'tests/test_calc.py': `import unittest

from calc import clamp


class ClampTest(unittest.TestCase):
    def test_inside(self):
        self.assertEqual(clamp(5, 0, 10), 5)

    def test_below(self):
        self.assertEqual(clamp(-3, 0, 10), 0)
`,
};

const fixed = base['calc.py'].replace(
  '    if value > high:\n        return value',
  '    if value > high:\n        return high',
);
const tested = `${base['tests/test_calc.py']}
    def test_above(self):
        self.assertEqual(clamp(12, 0, 10), 10)
`;

/**
 * Builds the repository (fixed author and dates, no user git config) and the instances file in `dir`.
 * @throws Error from git when the repository cannot be made.
 */
export function buildSyntheticDataset(dir: string, options: SyntheticDatasetOptions): SyntheticDataset {
  const reposDir = join(dir, 'repos');
  const repo = join(reposDir, 'sim__calc');
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(join(repo, 'tests'), { recursive: true });
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: repo,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'sandkit-sim',
        GIT_AUTHOR_EMAIL: 'sim@sandkit.invalid',
        GIT_COMMITTER_NAME: 'sandkit-sim',
        GIT_COMMITTER_EMAIL: 'sim@sandkit.invalid',
        GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
        GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
        TZ: 'UTC',
        LC_ALL: 'C',
      },
    });
  for (const [path, text] of Object.entries(base)) writeFileSync(join(repo, path), text);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'clamp');
  const baseCommit = git('rev-parse', 'HEAD').trim();
  const diffOf = (path: string, text: string): string => {
    writeFileSync(join(repo, path), text);
    const diff = git('diff', '--no-color', '--', path);
    git('checkout', '-q', '--', path);
    return diff;
  };
  const patch = diffOf('calc.py', fixed);
  const testPatch = diffOf('tests/test_calc.py', tested);

  const instanceIds: string[] = [];
  const testSeconds = new Map<string, number>();
  const lines = Array.from({ length: options.instances }, (_, index) => {
    const id = `sim__calc-${String(index).padStart(4, '0')}`;
    const seconds = uniformBetween(
      seededStream(options.seed, index),
      options.testSeconds.min,
      options.testSeconds.max,
    );
    instanceIds.push(id);
    testSeconds.set(id, seconds);
    const tests = 'python3 -m unittest -v tests.test_calc';
    return JSON.stringify({
      instance_id: id,
      repo: 'sim/calc',
      base_commit: baseCommit,
      patch,
      test_patch: testPatch,
      FAIL_TO_PASS: ['test_above (tests.test_calc.ClampTest.test_above)'],
      PASS_TO_PASS: [
        'test_below (tests.test_calc.ClampTest.test_below)',
        'test_inside (tests.test_calc.ClampTest.test_inside)',
      ],
      test_framework: 'unittest',
      test_cmd: seconds > 0 ? `sleep ${seconds.toFixed(3)} && ${tests}` : tests,
      version: '1.0',
    });
  });
  const dataset = join(dir, 'instances.jsonl');
  writeFileSync(dataset, `${lines.join('\n')}\n`);
  return { dataset, reposDir, instanceIds, testSeconds };
}
