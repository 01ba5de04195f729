/**
 * vitest output. Counts come from the `Tests` line only (never `Test Files`): each
 * `N passed|failed|skipped|todo` is read on its own, in any order, and `(N)` is the total. Per-test
 * lines are read from the verbose reporter (`✓ file > suite > test 2ms`); `FAIL  file > … > test`
 * headers give every failure with its first error line.
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

const testsLine = /^\s*Tests\s+(\d.*?)\s*\((\d+)\)\s*$/;
const resultLine = /^\s*([✓×↓□✗√]) (.+? > .+?)(?: \d+(?:\.\d+)?m?s)?$/;
const failHeader = /^\s*FAIL\s+(.+? > .+)$/;
const symbols: Record<string, [TestStatus, 'todo' | undefined]> = {
  '✓': ['passed', undefined],
  '√': ['passed', undefined],
  '×': ['failed', undefined],
  '✗': ['failed', undefined],
  '↓': ['skipped', undefined],
  '□': ['skipped', 'todo'],
};

/** Parses vitest output. Pure; never throws. */
export function parseVitest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const tests = testsLine.exec(line);
    if (tests) {
      const counts = readCountWords(tests[1] as string);
      const total = Number(tests[2]);
      collector.counts = {
        passed: counts.get('passed') ?? 0,
        failed: counts.get('failed') ?? 0,
        skipped: (counts.get('skipped') ?? 0) + (counts.get('todo') ?? 0),
        total,
      };
      continue;
    }
    const fail = failHeader.exec(line);
    if (fail) {
      const name = (fail[1] as string).trim();
      collector.add(name, 'failed');
      collector.fail(name, nextNonEmpty(lines, index + 1));
      continue;
    }
    const result = resultLine.exec(line);
    if (result) {
      const [status, outcome] = symbols[result[1] as string] ?? ['failed', undefined];
      collector.add((result[2] as string).trim(), status, outcome ? { outcome } : {});
    }
  }
  return collector.finish('vitest');
}

/** The first non-empty line from `start`, trimmed ('' when none within a few lines). */
export function nextNonEmpty(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 6); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '') return text;
  }
  return '';
}
