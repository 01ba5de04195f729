/**
 * parse: parseTestOutput on generated pytest logs of 5, 25 and 50 MB (verbose lines with
 * parametrised ids holding spaces, brackets and ` - `, a failure section per 200 tests, the `-rA`
 * short summary and the final summary line), against a baseline measured in the same run: one
 * pass that only splits the log into lines and tests one regex per line (the least any line parser
 * must do). Goals: linear (MB/s about the same at every size) and 50 MB under 1 s.
 * A fourth run parses the 50 MB log coloured with ANSI codes (B04), which adds the strip step.
 *
 * Run: pnpm tsx bench/parse.ts [rounds=3]
 */
import { parseTestOutput } from '../packages/tools/src/parsers/parse-test-output.js';

const rounds = Number(process.argv[2] ?? 3);

function generatePytestLog(
  targetBytes: number,
  colour: boolean,
): { text: string; tests: number; failed: number } {
  const green = colour ? (s: string) => `\x1b[32m${s}\x1b[0m` : (s: string) => s;
  const red = colour ? (s: string) => `\x1b[31m${s}\x1b[0m` : (s: string) => s;
  const verbose: string[] = [
    '============================= test session starts ==============================',
    'collected many items',
    '',
  ];
  const summary: string[] = [
    '=========================== short test summary info ============================',
  ];
  const failures: string[] = [
    '=================================== FAILURES ===================================',
  ];
  let size = 0;
  let tests = 0;
  let failed = 0;
  while (size < targetBytes) {
    const file = `tests/unit/module_${tests % 97}/test_feature.py`;
    const id = `${file}::TestGroup::test_case[input ${tests} - value [${tests % 7}]-expected ${tests % 3}]`;
    const fails = tests % 200 === 199;
    const line = `${id} ${fails ? red('FAILED') : green('PASSED')}${' '.repeat(8)}[ ${Math.floor((tests % 100) + 0)}%]`;
    verbose.push(line);
    summary.push(fails ? `FAILED ${id} - AssertionError: assert ${tests} == ${tests + 1}` : `PASSED ${id}`);
    if (fails) {
      failed++;
      failures.push(
        `____________ TestGroup.test_case[input ${tests} - value [${tests % 7}]-expected ${tests % 3}] ____________`,
      );
      failures.push(
        '',
        '    def test_case(value):',
        `>       assert value == ${tests + 1}`,
        `E       AssertionError: assert ${tests} == ${tests + 1}`,
        '',
      );
    }
    size += line.length + summary[summary.length - 1]!.length + 2 + (fails ? 220 : 0);
    tests++;
  }
  const final = `========== ${failed} failed, ${tests - failed} passed in 812.34s (0:13:32) ==========`;
  return { text: [...verbose, '', ...failures, ...summary, final, ''].join('\n'), tests, failed };
}

function baseline(text: string): number {
  let hits = 0;
  const status = / (PASSED|FAILED)\b/;
  for (const line of text.split('\n')) if (status.test(line)) hits++;
  return hits;
}

/** Wall and CPU (user + system, all threads of this process) milliseconds of one run. */
const time = (task: () => unknown): { wall: number; cpu: number } => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  task();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
};
const best = (task: () => unknown): { wall: number; cpu: number } => {
  const runs = Array.from({ length: rounds }, () => time(task));
  return { wall: Math.min(...runs.map((run) => run.wall)), cpu: Math.min(...runs.map((run) => run.cpu)) };
};

const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
console.log(
  `parseTestOutput on generated pytest logs (best of ${rounds}; load average ${load} on ${(await import('node:os')).availableParallelism()} cores)`,
);
console.log(
  '| log | MB | tests | parse wall ms | parse CPU ms | MB/s (wall) | baseline wall ms | ratio (wall) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [label, megabytes, colour] of [
  ['plain', 5, false],
  ['plain', 25, false],
  ['plain', 50, false],
  ['ANSI colour', 50, true],
] as const) {
  const log = generatePytestLog(megabytes * 1024 * 1024, colour);
  const mb = Buffer.byteLength(log.text) / (1024 * 1024);
  const parsed = parseTestOutput(log.text);
  if (parsed.total !== log.tests || parsed.failed !== log.failed || parsed.tests.length !== log.tests) {
    throw new Error(
      `wrong parse: total ${parsed.total} vs ${log.tests}, failed ${parsed.failed} vs ${log.failed}, tests ${parsed.tests.length}`,
    );
  }
  const parse = best(() => parseTestOutput(log.text));
  const base = best(() => baseline(log.text));
  console.log(
    `| ${label} | ${mb.toFixed(1)} | ${log.tests} | ${parse.wall.toFixed(0)} | ${parse.cpu.toFixed(0)} | ${(mb / (parse.wall / 1000)).toFixed(0)} | ${base.wall.toFixed(0)} | ${(parse.wall / base.wall).toFixed(2)}× |`,
  );
}
