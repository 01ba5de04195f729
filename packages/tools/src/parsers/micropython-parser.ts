/**
 * micropython's `tests/run-tests.py`: `pass  basics/try.py`, `FAIL  basics/slice.py`, `skip
 * x.py` (as the official SWE-bench v4.1.0 `parse_log_micropython_test` reads them), and, when a
 * test crashed the interpreter, `CRASH` in its output. Counts from `N tests passed`, `N tests
 * skipped: …`, `N tests failed: …` (the failed tests listed again: by path, `basics/slice.py`,
 * since v1.23; by bare name, `slice`, before; a listed one that matches no `FAIL` line, whose
 * line was lost, is added under the listed name); `N tests performed (M individual testcases)`
 * counts the tests that ran (passed and failed, not the skipped), so the total is it plus the
 * skipped.
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const result = /^(pass|FAIL|skip)\s+(\S.*)$/;
const performed = /^(\d+) tests performed \((\d+) individual testcases\)$/;
const passedLine = /^(\d+) tests passed$/;
const skippedLine = /^(\d+) tests skipped:/;
const failedLine = /^(\d+) tests failed:\s*(.*)$/;

const differs = 'output differs from CPython (see the .exp/.out diff)';

/** Parses micropython run-tests.py output. Pure; never throws. */
export function parseMicropython(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let total: number | undefined;
  let passed: number | undefined;
  let skipped = 0;
  /** The names of the `FAIL` lines, by path and by bare name (`basics/slice.py`, `slice`). */
  const failedLines = new Set<string>();
  let failed = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const match = result.exec(line);
    if (match) {
      if (isCutCopy(lines, index)) continue;
      const name = match[2] as string;
      collector.add(name, match[1] === 'pass' ? 'passed' : match[1] === 'FAIL' ? 'failed' : 'skipped');
      if (match[1] === 'FAIL') {
        collector.fail(name, differs);
        failedLines.add(name).add(bareName(name));
      }
      continue;
    }
    const all = performed.exec(line);
    if (all) {
      total = Number(all[1]);
      continue;
    }
    const pass = passedLine.exec(line);
    if (pass) {
      passed = Number(pass[1]);
      continue;
    }
    const skip = skippedLine.exec(line);
    if (skip) {
      skipped = Number(skip[1]);
      continue;
    }
    const fail = failedLine.exec(line);
    if (fail) {
      failed = Number(fail[1]);
      for (const name of (fail[2] as string).split(/\s+/).filter((part) => part !== '')) {
        if (failedLines.has(name)) continue;
        collector.add(name, 'failed');
        collector.fail(name, differs);
      }
    }
  }
  if (passed !== undefined)
    collector.counts = {
      passed,
      failed,
      skipped,
      ...(total !== undefined ? { total: total + skipped } : {}),
    };
  else if (failed > 0) collector.counts = { failed };
  return collector.finish('micropython');
}

/** `basics/slice.py` → `slice`, the name run-tests.py before v1.23 lists failures by. */
function bareName(path: string): string {
  return (path.split('/').pop() as string).replace(/\.py$/, '');
}
