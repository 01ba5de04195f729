/**
 * minitest verbose output (`ruby -Itest test/x.rb -v`): `Class#test_name = 0.00 s = .` with
 * `.` passed, `F` failed, `E` error, `S` skipped. A name ending in `.` (shoulda's `test_: … should
 * x. `) loses that dot, as the official SWE-bench v4.1.0 `parse_log_minitest` names it. Messages
 * from the `N) Failure:`/`N) Error:` entries. Counts from `N runs, N assertions, N failures, N
 * errors, N skips` (failed = failures + errors). A Ruby exception that ends the process before a
 * summary (`x.rb:1:in 'require': cannot load such file -- y (LoadError)`) is an `error` named by
 * that file.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const testLine = /^(.+?)\.? = [\d.]+ s = ([.FES])$/;
const summary = /^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips$/;
const entry = /^\s*\d+\) (Failure|Error):$/;
const crash = /^(\S+?\.rb):\d+:in [`'][^']*': (.*\(\w+(?:::\w+)*\))$/;

/** Parses minitest -v output. Pure; never throws. */
export function parseMinitest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let summarised = false;
  const crashes: Array<[string, string]> = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const test = testLine.exec(line.trim());
    if (test) {
      const mark = test[2] as string;
      collector.add(
        test[1] as string,
        mark === '.' ? 'passed' : mark === 'F' ? 'failed' : mark === 'E' ? 'error' : 'skipped',
      );
      continue;
    }
    const total = summary.exec(line.trim());
    if (total) {
      const runs = Number(total[1]);
      const failed = Number(total[2]) + Number(total[3]);
      const skipped = Number(total[4]);
      collector.counts = { total: runs, failed, skipped, passed: Math.max(0, runs - failed - skipped) };
      summarised = true;
      continue;
    }
    if (entry.test(line)) {
      const header = (lines[index + 1] as string | undefined)?.trim() ?? '';
      const name = /^(.+?)\.?(?: \[[^\]]*\])?:$/.exec(header)?.[1];
      const message = (lines[index + 2] as string | undefined)?.trim() ?? '';
      if (name !== undefined && collector.statusOf(name) !== undefined) collector.fail(name, message);
      continue;
    }
    const died = crash.exec(line.trim());
    if (died) crashes.push([died[1] as string, died[2] as string]);
  }
  if (!summarised) {
    for (const [file, message] of crashes.slice(0, 1)) {
      collector.add(file, 'error');
      collector.fail(file, message);
    }
  }
  return collector.finish('minitest');
}
