/**
 * vitest output. Counts come from the `Tests` line only (never `Test Files`): each
 * `N passed|failed|skipped|todo` is read on its own, in any order, and `(N)` is the total. Per-test
 * lines are read from the verbose reporter (`✓ file > suite > test 2ms`); `FAIL  file > … > test`
 * headers give every failure with its first error line. A test vitest retried (`retry: N`) is one
 * test: `(retry x2)` after its duration gives `tries` 3, and so do its three `FAIL` headers (one
 * per failed try) where the verbose line is not printed. A run whose filter matched no test file
 * (`No test files found, exiting with code 1`) is an `error` named by that filter.
 *
 * A file that fails to load (`FAIL  file [ file ]`) is an `error` named by its file; a failing
 * hook (`FAIL  file > suite`) is a failure named by its suite; both with their error line. The
 * `Tests` line leaves such suites out: the `Failed Suites N` header's N (or, when no test failed,
 * the `Test Files` line's failed files) is added to `failed` and `total`. Errors thrown outside any test (`Vitest caught N unhandled errors`) are one `error`
 * named `unhandled errors`, counted the same way.
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

const testsLine = /^\s*Tests\s+(\d.*?)\s*\((\d+)\)\s*$/;
const filesLine = /^\s*Test Files\s+(\d.*?)\s*\((\d+)\)\s*$/;
const resultLine = /^\s*([✓×↓□✗√]) (.+? > .+?)(?: \d+(?:\.\d+)?m?s)?(?: \(retry x(\d+)\))?$/;
const failHeader = /^\s*FAIL\s+(.+? > .+)$/;
const fileFailHeader = /^\s*FAIL\s+(\S+) \[ \S+ \]$/;
const noFiles = /^No test files found, exiting with code 1$/;
const failedSuites = /^⎯+ Failed Suites (\d+) ⎯+$/;
const unhandled = /^Vitest caught (\d+) unhandled errors? during the test run/;
const errorsLine = /^\s*Errors\s+(\d+) errors?\s*$/;
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
  let suitesFailed = 0;
  let filesFailed = 0;
  const brokenFiles = new Set<string>();
  let unhandledErrors = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const suites = failedSuites.exec(line);
    if (suites) {
      suitesFailed = Number(suites[1]);
      continue;
    }
    const files = filesLine.exec(line);
    if (files) {
      filesFailed = readCountWords(files[1] as string).get('failed') ?? 0;
      continue;
    }
    const fileFail = fileFailHeader.exec(line);
    if (fileFail) {
      const name = fileFail[1] as string;
      brokenFiles.add(name);
      collector.add(name, 'error');
      collector.fail(name, nextNonEmpty(lines, index + 1));
      continue;
    }
    const caught = unhandled.exec(line);
    if (caught) {
      unhandledErrors = Number(caught[1]);
      collector.add('unhandled errors', 'error');
      collector.fail('unhandled errors', errorLine(lines, index + 1));
      continue;
    }
    const errors = errorsLine.exec(line);
    if (errors && Number(errors[1]) > 0) {
      unhandledErrors = Math.max(unhandledErrors, Number(errors[1]));
      if (collector.statusOf('unhandled errors') === undefined) collector.add('unhandled errors', 'error');
      continue;
    }
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
    if (noFiles.test(line)) {
      // No test file matched the filter (exit 1; `--passWithNoTests` makes it exit 0, no failure).
      const filter = lines.slice(index + 1, index + 4).map((next) => /^filter: (.+)$/.exec(next)?.[1]);
      const name = filter.find((value) => value !== undefined) ?? 'vitest';
      collector.add(name, 'error');
      collector.fail(name, line);
      continue;
    }
    const fail = failHeader.exec(line);
    if (fail) {
      const name = (fail[1] as string).trim();
      // vitest prints one header per failed try of a retried test, then the error once.
      let repeats = 1;
      while (failHeader.exec((lines[index + repeats] as string | undefined) ?? '')?.[1]?.trim() === name)
        repeats++;
      collector.add(name, 'failed', repeats > 1 ? { tries: repeats } : undefined);
      collector.fail(name, nextNonEmpty(lines, index + repeats));
      index += repeats - 1;
      continue;
    }
    const result = resultLine.exec(line);
    if (result) {
      const [status, outcome] = symbols[result[1] as string] ?? ['failed', undefined];
      const retries = result[3] === undefined ? 0 : Number(result[3]);
      collector.add((result[2] as string).trim(), status, {
        ...(outcome ? { outcome } : {}),
        ...(retries > 0 ? { tries: retries + 1 } : {}),
      });
    }
  }
  const counts = collector.counts;
  // With no failed test, every failed file (the `Test Files` count) failed outside its tests.
  const suites = Math.max(suitesFailed, brokenFiles.size, counts?.failed === 0 ? filesFailed : 0);
  const outside = suites + (unhandledErrors > 0 ? 1 : 0);
  if (counts !== undefined && outside > 0) {
    counts.failed = (counts.failed ?? 0) + outside;
    counts.total = (counts.total ?? 0) + outside;
  }
  return collector.finish('vitest');
}

/** The first `…Error: message` line from `start` (an unhandled error's report), or ''. */
function errorLine(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 12); index++) {
    const text = (lines[index] as string).trim();
    if (/^\w*(?:Error|Exception)\b.*:/.test(text)) return text;
  }
  return '';
}

/** The first non-empty line from `start`, trimmed ('' when none within a few lines). */
export function nextNonEmpty(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 6); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '') return text;
  }
  return '';
}
