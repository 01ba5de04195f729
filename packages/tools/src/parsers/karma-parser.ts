/**
 * Karma output. karma-mocha-reporter (preact; what the official SWE-bench v4.1.0
 * `parse_log_karma` reads): after `Starting browser`, suites by indentation and `✔ test` /
 * `✖ test` lines, named `suite > … > test` (the browser's console lines, `LOG: 'x'` / `WARN:
 * 'x'`, unindented between them, are not suites; a skipped test is printed `✖ test (skipped)`, with
 * the failure mark: it is skipped, named without the suffix); `SUMMARY:` then `✔ N tests completed`, `ℹ N tests
 * skipped`, `✖ N tests failed` give the counts, and the `FAILED TESTS:` list gives messages.
 * Progress/dots reporter (Chart.js; official `parse_log_chart_js`): `Chrome 120.0 (Linux x86_64)
 * suite test FAILED` names a failure, `Executed 10 of 10 (1 FAILED) (skipped 2)` and `TOTAL: 1
 * FAILED, 9 SUCCESS` give counts (the passes and failures of TOTAL, the skipped and the total of
 * the last `Executed` line, whose run count leaves the skipped out). An error outside any test (`Chrome … ERROR` with the reason on
 * the following lines, e.g. a bundle that fails to build or an afterAll hook) is an `error` named
 * by the browser line.
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const mochaLine = /^(\s*)([✔✖])\s(.+?)(?: \(\d+ms\))?$/u;
const summaryCount = /^([✔✖ℹ]) (\d+) tests? (completed|failed|skipped)$/u;
const progressFailed = /^(\w[\w ]*?\s[\d.]+ \([^)]*\))\s(.*)\sFAILED$/;
const browserError = /^(\w[\w ]*?\s[\d.]+ \([^)]*\)) ERROR$/;
const executed =
  /^(?:\w[\w ]*?\s[\d.]+ \([^)]*\)):? Executed (\d+) of (\d+)(?: \((\d+) FAILED\))?(?: \(skipped (\d+)\))?.*?(?:SUCCESS|ERROR|\(.*secs.*\))/;
const skippedSuffix = ' (skipped)';
const total = /^TOTAL: (?:(\d+) FAILED, )?(\d+) SUCCESS$/;

/** Parses karma output. Pure; never throws. */
export function parseKarma(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let started = false;
  let inSummary = false;
  let suites: Array<{ indent: number; name: string }> = [];
  const summary = new Map<string, number>();
  let lastExecuted: { ran: number; of: number; failed: number; skipped: number } | undefined;
  let totalLine: { failed: number; passed: number } | undefined;
  const failedTitles = new Map<string, string>();
  const failedNames: Array<[name: string, title: string]> = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const count = summaryCount.exec(line.trim());
    if (count) {
      summary.set(count[3] as string, Number(count[2]));
      continue;
    }
    if (line.startsWith('SUMMARY:')) {
      inSummary = true;
      continue;
    }
    if (/Starting browser/.test(line)) {
      started = true;
      continue;
    }
    const failedTest = progressFailed.exec(line.trim());
    if (failedTest) {
      const name = (failedTest[2] as string).trim();
      collector.add(name, 'failed');
      collector.fail(name, nextText(lines, index + 1));
      continue;
    }
    const error = browserError.exec(line.trim());
    if (error) {
      const name = `${error[1] as string} ERROR`;
      collector.add(name, 'error');
      collector.fail(name, nextText(lines, index + 1));
      continue;
    }
    const run = executed.exec(line.trim());
    if (run) {
      lastExecuted = {
        ran: Number(run[1]),
        of: Number(run[2]),
        failed: Number(run[3] ?? 0),
        skipped: Number(run[4] ?? 0),
      };
      continue;
    }
    const totals = total.exec(line.trim());
    if (totals) {
      totalLine = { failed: Number(totals[1] ?? 0), passed: Number(totals[2]) };
      continue;
    }
    if (inSummary) {
      // FAILED TESTS: `✖ test` (under its suites), the browser line, then the error
      const failed = mochaLine.exec(line);
      if (failed?.[2] === '✖') failedTitles.set(failed[3] as string, errorAfter(lines, index + 1));
      continue;
    }
    if (!started || line.trim() === '') continue;
    const match = mochaLine.exec(line);
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    // suites and tests are indented; an unindented line (the browser's `LOG: 'x'`) closes nothing
    if (indent === 0) continue;
    suites = suites.filter((suite) => suite.indent < indent);
    if (match && isCutCopy(lines, index)) continue;
    if (match) {
      const title = match[3] as string;
      const skipped = match[2] === '✖' && title.endsWith(skippedSuffix);
      const name = [
        ...suites.map((suite) => suite.name),
        skipped ? title.slice(0, -skippedSuffix.length) : title,
      ].join(' > ');
      collector.add(name, skipped ? 'skipped' : match[2] === '✔' ? 'passed' : 'failed');
      if (match[2] === '✖' && !skipped) failedNames.push([name, title]);
      continue;
    }
    if (!/^\s+at |^\s*(?:Finished in|Error|Expected|AssertionError)/.test(line))
      suites.push({ indent, name: line.trim() });
  }
  for (const [name, title] of failedNames) {
    const reason = failedTitles.get(title);
    if (reason) collector.fail(name, reason);
  }
  if (summary.size > 0) {
    const passed = summary.get('completed') ?? 0;
    const failed = summary.get('failed') ?? 0;
    const skipped = summary.get('skipped') ?? 0;
    collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
  } else if (totalLine !== undefined) {
    const { passed, failed } = totalLine;
    // the last Executed line of the same run: `Executed 5 of 6 (2 FAILED) (skipped 1)`
    collector.counts =
      lastExecuted !== undefined && lastExecuted.ran === passed + failed && lastExecuted.failed === failed
        ? { passed, failed, skipped: lastExecuted.skipped, total: lastExecuted.of }
        : { passed, failed };
  } else if (lastExecuted !== undefined) {
    const { ran, of, failed, skipped } = lastExecuted;
    collector.counts = { passed: Math.max(0, ran - failed), failed, skipped, total: of };
  }
  return collector.finish('karma');
}

function nextText(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 5); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '') return text;
  }
  return '';
}

/** The error of a FAILED TESTS entry: the first line after it that is not the browser's name. */
function errorAfter(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 5); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '' && !/^\w[\w ]*?\s[\d.]+ \([^)]*\)$/.test(text)) return text;
  }
  return '';
}
