import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SandkitError } from '@sandkit/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GradedInstance, GradeTask } from '../../../src/eval/grade/grade-one.js';
import { startGradePool } from '../../../src/eval/grade/grade-pool.js';
import { loadInstances } from '../../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../../src/eval/load/swe-bench-instance.js';
import { repoRoot } from '../eval-test-helpers.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
const logs = join(fixtures, 'logs/run_evaluation/fixture-run/model-a');
const plan = {
  parser: 'pytest',
  officialParser: 'parse_log_pytest_options',
  failOnly: false,
  source: 'spec',
} as const;
/** Dies on the logs named `exit-here` and `throw-here` (see the module). */
const faultyWorker = pathToFileURL(
  join(repoRoot, 'packages/runtime/test/eval/grade/faulty-grade-worker.ts'),
).href;

let instance: SweBenchInstance;
beforeAll(async () => {
  const { instances } = await loadInstances(join(fixtures, 'dataset.jsonl'));
  const row = instances.find((one) => one.instance_id === 'psf__requests-90002');
  if (row === undefined) throw new Error('fixture row psf__requests-90002 is missing');
  instance = row;
});

/** `count` tasks grading the psf__requests fixture log, the first one from `firstDir` instead. */
const tasks = (firstDir: string, count: number): GradeTask[] =>
  Array.from({ length: count }, (_, index) => ({
    instance,
    plan,
    found: {
      instanceId: instance.instance_id,
      model: 'model-a',
      dir: index === 0 ? firstDir : join(logs, 'psf__requests-90002'),
      logIsDirectory: false,
    },
  }));

describe('startGradePool', () => {
  describe('when a worker thread dies while grading a log', () => {
    it.each([
      ['exits (process.exit in the thread)', '/exit-here', /it exited with code 3/],
      ['throws outside any task (an uncaught exception)', '/throw-here', /RangeError: injected fault/],
    ])(
      '%s: fails that log with an internal error naming why, and grades the others',
      async (_, name, why) => {
        const pool = startGradePool({ workers: 1, entry: faultyWorker });
        try {
          // Workers are fed first: task 0 goes to the worker, not to this thread.
          const handedOut: number[] = [];
          const graded: GradedInstance[] = [];
          await pool.grade(tasks(name, 6), (index, one) => {
            handedOut.push(index);
            graded[index] = one;
          });
          expect(graded).toHaveLength(6);
          expect(handedOut.sort()).toEqual([0, 1, 2, 3, 4, 5]);
          expect(graded[0]?.result).toMatchObject({
            instance_id: 'psf__requests-90002',
            status: 'error',
            error_kind: 'internal',
            infra_error: true,
          });
          expect(graded[0]?.result.error).toMatch(/^the worker thread grading this log died \(/);
          expect(graded[0]?.result.error).toMatch(why);
          expect(JSON.parse(graded[0]?.reportJson ?? '{}')['psf__requests-90002']).toMatchObject({
            patch_successfully_applied: false,
            resolved: false,
          });
          expect(graded.slice(1).map((one) => one.result.status)).toEqual(Array(5).fill('resolved'));
        } finally {
          await pool.close();
        }
      },
    );
  });

  describe('when a worker thread cannot load the grading code', () => {
    it('rejects the run with SandkitError internal, saying to grade with --jobs 1, and hands out no result', async () => {
      const entry = pathToFileURL(join(fixtures, 'no-such-worker.js')).href;
      const pool = startGradePool({ workers: 2, entry });
      try {
        const handedOut: number[] = [];
        // 8 tasks: 6 go to the two workers, 2 to this thread, whose results are held back.
        const run = pool.grade(tasks(join(logs, 'psf__requests-90002'), 8), (index) => handedOut.push(index));
        await expect(run).rejects.toSatisfy(
          (error) => SandkitError.isInstance(error) && error.code === 'internal',
        );
        await expect(run).rejects.toThrow(/could not start \(.*no-such-worker\.js.*\).*--jobs 1/);
        expect(handedOut).toEqual([]);
      } finally {
        await pool.close();
      }
    });
  });
});
