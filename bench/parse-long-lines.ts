/**
 * parse-long-lines: what a line holding a long run of spaces costs each runner's parser (a
 * backtracking pattern made such lines quadratic: 300,000 spaces took 73 s in the gradle parser
 * and 100,000 took 20 s in the tap, automake and redis-tcl ones before they were rewritten as scans).
 * Baseline in the same run: the same framework on a line of the same length with no whitespace run
 * (`x` in place of each space), which any linear parser reads at about the same cost. Goal: every
 * ratio near 1× (linear), none above 10×.
 *
 * Run: pnpm tsx bench/parse-long-lines.ts [spaces=300000] [rounds=5]
 */
import { parseTestOutput } from '../packages/tools/src/parsers/parse-test-output.js';
import type { TestFramework } from '../packages/tools/src/parsers/test-output-types.js';
import { median } from './bench-stats.js';

const length = Number(process.argv[2] ?? 300_000);
const rounds = Number(process.argv[3] ?? 5);

/** Per framework: a log whose lines hold `gap` where a runner prints a name, status or message. */
const logs: Array<[TestFramework, (gap: string) => string]> = [
  [
    'gradle',
    (gap) => `Calc > adds${gap}FAILED\nCalc > x${gap}y\n> Task :test${gap}PASSED\nCalc > subs\tPASSED\n`,
  ],
  ['tap', (gap) => `not ok 1 - adds${gap}x${gap}\nok 2 - subs${gap}# SKIP later\n`],
  ['automake', (gap) => `FAIL: t/a${gap}x:\nPASS: t/b${gap}# SKIP no\n`],
  [
    'redis-tcl',
    (gap) => `[err]: adds${gap}x${gap}:\nexpected 1\n[err]: subs in tests/unit/x.tcl\nexpected 2\n`,
  ],
  ['pytest', (gap) => `tests/a.py::test_x[${gap}] PASSED\n=== 1 passed in 0.1s ===\n`],
  ['jest', (gap) => `FAIL ./c.test.js${gap}(3 ms)${gap}\nTests: 1 failed, 1 total\n`],
  ['go', (gap) => `--- FAIL: TestX${gap}(0.00s)\nFAIL\n`],
  ['cargo', (gap) => `test a::b${gap}... FAILED\ntest result: FAILED. 0 passed; 1 failed\n`],
];

function timeParse(framework: TestFramework, text: string): number {
  const started = performance.now();
  parseTestOutput(text, { framework });
  return performance.now() - started;
}

console.log(
  `parse-long-lines: a run of ${length.toLocaleString('en')} spaces per line, median of ${rounds} (Node ${process.version})`,
);
console.log('| framework | spaces ms | no-space baseline ms | ratio |');
console.log('|---|---:|---:|---:|');
let worst = 0;
for (const [framework, log] of logs) {
  const spaced = log(' '.repeat(length));
  const solid = log('x'.repeat(length));
  timeParse(framework, solid); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round++) {
    b.push(timeParse(framework, solid));
    a.push(timeParse(framework, spaced));
  }
  const ratio = median(a) / Math.max(median(b), 0.01);
  worst = Math.max(worst, ratio);
  console.log(`| ${framework} | ${median(a).toFixed(2)} | ${median(b).toFixed(2)} | ${ratio.toFixed(2)}× |`);
}
console.log(`worst ratio ${worst.toFixed(2)}× — goal ≤ 10×: ${worst <= 10 ? 'met' : 'NOT met'}`);
