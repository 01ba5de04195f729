import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../eval-test-helpers.js';
import { type SyntheticSpec, writeSubmission } from './synthetic-submission.js';

/**
 * Growth of grading one instance with its list length, counted in instructions (callgrind), not
 * timed: the same count whatever else the machine runs. Each instance is graded in one process
 * (`grade-growth-run.ts`), warmed up, then `rounds` times; the least count of its rounds is kept
 * (a grading that meets a tier-up compile costs more once). Every instance compares with an
 * official report that puts every test in the other list (the per-test comparison and its
 * reasons), django ones with merged lines, pytest ones with a tenth of the tests missing and
 * listed by a prefix of a logged id (prefix matches); both sizes share the same 200 KB of other
 * output, as a real log's `git show` and setup.
 */
const sizes = [500, 5000] as const;
const rounds = 3;
const kinds = ['django', 'pytest'] as const;
const dir = mkdtempSync(join(tmpdir(), 'grade-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gradeTask', () => {
  describe('when an instance lists 5,000 tests instead of 500, every one in the other list of the official report', () => {
    it('costs less than 10 times the instructions', () => {
      const spec = (n: number): SyntheticSpec => ({
        kind: kinds[Math.floor(n / 2)] as SyntheticSpec['kind'],
        listed: sizes[n % 2] as number,
        differ: 1,
        merged: 20,
        missing: 0.1,
        noiseBytes: 200_000,
      });
      const submission = writeSubmission(join(dir, 'submission'), 4, spec);
      const dumps = join(dir, 'callgrind');
      execFileSync('mkdir', ['-p', dumps]);
      const output = execFileSync(
        'valgrind',
        [
          '--tool=callgrind',
          '--dump-before=uv_os_getpriority',
          `--callgrind-out-file=${join(dumps, 'out')}`,
          process.execPath,
          '--single-threaded',
          '--expose-gc',
          '--hash-seed=1',
          '--random-seed=1',
          '--conditions=@sandkit/source',
          '--import',
          'tsx',
          join(repoRoot, 'packages/runtime/test/eval/grade/grade-growth-run.ts'),
          join(dir, 'submission'),
          String(rounds),
        ],
        { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 20 },
      );
      expect(JSON.parse(output)).toHaveLength(rounds * submission.ids.length);
      // Dump 1 is the start and warm-up; dump 2 + 2i the i-th grading, the dumps between them garbage collections.
      const counts = new Map<number, number>();
      for (const file of readdirSync(dumps)) {
        const text = readFileSync(join(dumps, file), 'utf8');
        const part = Number(/^part: (\d+)$/m.exec(text)?.[1]);
        const total = Number(/^summary: (\d+)$/m.exec(text)?.[1]);
        if (/Trigger: --dump-before/.test(text)) counts.set(part, total);
      }
      const least = (instance: number): number =>
        Math.min(
          ...Array.from(
            { length: rounds },
            (_, round) => counts.get(2 + 2 * (round * 4 + instance)) ?? Number.NaN,
          ),
        );
      const growth = kinds.map((kind, k) => ({ kind, ratio: least(2 * k + 1) / least(2 * k) }));
      process.stdout.write(`grade growth 500 → 5,000 tests (instructions): ${JSON.stringify(growth)}\n`);
      for (const { ratio } of growth) {
        expect(ratio).toBeGreaterThan(1);
        expect(ratio).toBeLessThan(10);
      }
    }, 900_000);
  });
});
