/**
 * jasmine's default console reporter (marked). The official SWE-bench v4.1.0 `parse_log_marked`
 * reads every `N) full spec name` line as a failure; here only those under `Failures:` are
 * failures (message: the line after `Message:`), those under `Pending:` are skipped, and a
 * `Suite error: name` (a failing beforeAll/afterAll, outside any spec) is an `error` named by
 * the suite. Passing specs are not printed by name. Counts from `5 specs, 3 failures, 1 pending
 * spec`: failed is jasmine's failures (suite errors included). passed = specs − failures −
 * pending, given only when no suite error was printed: jasmine's failures then count specs only.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const summary = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?$/;
const numbered = /^(\d+)\) (.+)$/;
const suiteError = /^Suite error: (.+)$/;

/** Parses jasmine output. Pure; never throws. */
export function parseJasmine(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let section: 'failures' | 'pending' | undefined;
  let suiteErrors = 0;
  let sawPending = false;
  let totals: { specs: number; failures: number; pending: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = summary.exec(line.trim());
    if (total) {
      totals = { specs: Number(total[1]), failures: Number(total[2]), pending: Number(total[3] ?? 0) };
      section = undefined;
      continue;
    }
    if (line === 'Failures:') {
      section = 'failures';
      continue;
    }
    if (line === 'Pending:') {
      section = 'pending';
      sawPending = true;
      continue;
    }
    const suite = suiteError.exec(line);
    if (suite) {
      const name = suite[1] as string;
      suiteErrors++;
      collector.add(name, 'error');
      collector.fail(name, messageAfter(lines, index + 1));
      continue;
    }
    const entry = numbered.exec(line);
    if (entry && section !== undefined) {
      const name = entry[2] as string;
      if (section === 'pending') collector.add(name, 'skipped');
      else {
        collector.add(name, 'failed');
        collector.fail(name, messageAfter(lines, index + 1));
      }
    }
  }
  if (totals !== undefined) {
    const { specs, failures, pending } = totals;
    if (suiteErrors > 0 || (pending === 0 && sawPending)) {
      // suite errors are in jasmine's failures: how many specs failed, so passed, is not printed
      collector.counts = {
        total: specs,
        failed: failures,
        ...(pending === 0 && sawPending ? {} : { skipped: pending }),
      };
      return collector.finish('jasmine');
    }
    collector.counts = {
      total: specs,
      failed: failures,
      skipped: pending,
      passed: Math.max(0, specs - failures - pending),
    };
  }
  return collector.finish('jasmine');
}

function messageAfter(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 4); index++) {
    if ((lines[index] as string).trim() === 'Message:')
      return (lines[index + 1] as string | undefined)?.trim() ?? '';
  }
  return '';
}
