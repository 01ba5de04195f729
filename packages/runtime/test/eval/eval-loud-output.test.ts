import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeLog } from '../../src/eval/grade/grade-log.js';
import { buildMirrors, miniInstances, readJsonl, runCli, tempDir, writeJsonl } from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('loud'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
});
afterAll(() => cleanup());

const pytest = '/usr/bin/python3 -m pytest --no-header -rA --tb=no --color=no -p no:cacheprovider';

/** Runs `sandkit eval --gold` on the local adapter for one pytest row with `testCmd`, then `sandkit grade` on its logs. */
async function evalThenGrade(name: string, testCmd: string) {
  const row = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__durations-1')!;
  const dataset = join(dir, `${name}.jsonl`);
  await writeJsonl(dataset, [{ ...row, instance_id: name, test_cmd: testCmd }]);
  const out = join(dir, `${name}-out`);
  const common = ['--dataset', dataset, '--json'];
  const evalRun = await runCli(['eval', ...common, '--gold', '--repos', mirrors, '--out', out]);
  const evaluated = (await readJsonl(join(out, 'results.jsonl')))[0]!;
  const gradeRun = await runCli(['grade', ...common, '--logs', out, '--out', join(dir, `${name}-grade`)]);
  const graded = (await readJsonl(join(dir, `${name}-grade`, 'results.jsonl')))[0]!;
  return { evalRun, gradeRun, evaluated, graded, out };
}

describe('sandkit eval with test output over the 64 MiB the host keeps (local adapter)', () => {
  it('R04: 70 MiB printed between two pytest runs: the whole log is graded, resolved for the gold patch, and grade agrees', async () => {
    const loud = `yes 0123456789012345678901234567890123456789012345678901234567890123456789 | head -c 70M`;
    const started = performance.now();
    const run = await evalThenGrade('bk__toy-loud', `${pytest}; ${loud}; ${pytest}`);
    const seconds = (performance.now() - started) / 1000;
    expect(run.evalRun.stderr).not.toMatch(/\n\s+at /);
    expect(run.evaluated).toMatchObject({ status: 'resolved' });
    expect(run.graded).toMatchObject({ status: 'resolved' });
    const log = await readFile(join(run.out, 'instances', 'bk__toy-loud', 'eval.log'), 'utf8');
    // the test command's real exit code, not -1 for a step the host's cap cut
    expect(log).toMatch(/tests: exit 0; output \(\d+ bytes, read whole/);
    expect(log).not.toMatch(/parsed 0 test statuses/);
    const kept = await readFile(join(run.out, 'instances', 'bk__toy-loud', 'test_output.txt'));
    expect(kept.length).toBeGreaterThan(70 * 1024 * 1024);
    expect(kept.subarray(-200).toString()).toContain('>>>>> End Test Output');
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('R04: a test command that ends the log before its end marker is the same error in eval and grade, never "unresolved"', async () => {
    // `exit` leaves the test step's subshell: no ">>>>> End Test Output", as a cut log
    const run = await evalThenGrade('bk__toy-exit', `${pytest}; exit 3`);
    expect(run.evaluated).toMatchObject({ status: 'error', error_kind: 'incomplete_log' });
    expect(run.graded).toMatchObject({ status: 'error', error_kind: 'incomplete_log' });
    expect(run.evaluated.error).toBe(run.graded.error);
  }, 120_000);

  it("R04: a head that sandkit cut and did not grade is an incomplete_log error in grade, with sandkit's reason", () => {
    const head = `>>>>> Start Test Output\nPASSED tests/test_a.py::test_a\n${'y'.repeat(100)}\n`;
    const reason =
      'test output over 1100 MiB, cut by sandkit: not graded (over the 1024 MiB sandkit reads back to grade)';
    const input = {
      parser: 'pytest',
      officialParser: null,
      failOnly: false,
      FAIL_TO_PASS: ['tests/test_a.py::test_a'],
      PASS_TO_PASS: [],
    };
    for (const log of [`${head}\n::sandkit-output-cut ${reason}\n`]) {
      const graded = gradeLog(log, input);
      expect(graded).toMatchObject({
        evaluated: false,
        resolved: false,
        notEvaluatedKind: 'incomplete_log',
        notEvaluatedReason: reason,
      });
    }
  });
});
