/**
 * sympy's own runner (`bin/test`, `sympy.testing.runtests`). Verbose (`bin/test -v`, as SWE-bench
 * runs it): after each `path.py[N]` header, one line per test, `test_name ok`, `test_name F`
 * (failed), `E` (exception), `f` (expected failure), `X` (unexpected pass), `[reason ]s|w|K`
 * (skipped), `T` (timeout). Failure sections are headed `____ path.py:test_name ____` (or
 * `path.py::test_name`). Counts from `tests finished: 1 passed, 1 failed, 1 skipped, 1 expected
 * to fail, 1 exceptions, in 0.47 seconds`, which the runner wraps over two lines when long.
 * A test file that fails to import (`path.py[?]   Failed to import   [FAIL]`) is an `error` named
 * by its path, with the exception line of its `____ /abs/path.py ____` section as its message.
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput, ParsedTest, TestStatus } from './test-output-types.js';

const verboseLine = /^(test_\w+) (?:(.*) )?(ok|F|E|f|X|s|w|K|T)$/;
const sectionHeader = /^_+ (\S+\.py)(?::|::)(\w+) _+$/;
const fileSection = /^_+ (\S+\.py) _+$/;
const importFailure = /^(\S+\.py)\[\?\]\s+Failed to import\b/;
const statuses: Record<string, [TestStatus, ParsedTest['outcome']]> = {
  ok: ['passed', undefined],
  F: ['failed', undefined],
  E: ['error', undefined],
  T: ['error', undefined],
  f: ['skipped', 'xfailed'],
  X: ['passed', 'xpassed'],
  s: ['skipped', undefined],
  w: ['skipped', undefined],
  K: ['skipped', undefined],
};

/** Parses sympy test runner output. Pure; never throws. */
export function parseSympy(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const unimported: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).replace(/\s*\[(?:OK|FAIL)\]\s*$/, '').trim();
    const failedImport = importFailure.exec(line);
    if (failedImport) {
      const name = failedImport[1] as string;
      collector.add(name, 'error');
      unimported.push(name);
      continue;
    }
    const file = fileSection.exec(line);
    if (file) {
      // The section names the file by its absolute path; the listing by its relative one.
      const path = file[1] as string;
      const name = unimported.find((relative) => path === relative || path.endsWith(`/${relative}`));
      if (name !== undefined) collector.fail(name, tracebackEnd(lines, index + 1));
      continue;
    }
    const test = verboseLine.exec(line);
    if (test) {
      const [status, outcome] = statuses[test[3] as string] ?? ['failed', undefined];
      collector.add(test[1] as string, status, outcome ? { outcome } : {});
      continue;
    }
    const header = sectionHeader.exec(line);
    if (header) {
      const name = header[2] as string;
      collector.fail(name, tracebackEnd(lines, index + 1));
      continue;
    }
    const finished = line.indexOf('tests finished:');
    if (finished >= 0) {
      let text = line.slice(finished + 15);
      if (!/seconds/.test(text)) text += ` ${(lines[index + 1] ?? '').trim()}`;
      const words = readCountWords(text.replace(/=+/g, ''));
      const get = (word: string): number => words.get(word) ?? 0;
      const passed = get('passed') + get('expected to fail but passed');
      const failed = get('failed') + get('exceptions');
      const skipped = get('skipped') + get('expected to fail');
      collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
    }
  }
  return collector.finish('sympy');
}

/** The last non-empty line of a failure section (the exception line). */
function tracebackEnd(lines: readonly string[], start: number): string {
  let message = '';
  for (let index = start; index < Math.min(lines.length, start + 200); index++) {
    const line = lines[index] as string;
    if (/^_{10,}/.test(line) || line.includes('tests finished:')) break;
    if (line.trim() !== '') message = line.trim();
  }
  return message;
}
