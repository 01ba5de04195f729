/**
 * PHPUnit console output, `--testdox` and default. `--testdox` (what the official SWE-bench
 * v4.1.0 `parse_log_phpunit` reads): a class header line (`Math`, or `Math (Tests\Math)` on
 * PHPUnit 10+) and ` ✔`/` ✘`/` ↩`/` ∅` test lines, named `Class > test` as the official names
 * them; the first `│ ` line after a ✘ is its message. Default output: the numbered entries under
 * `There were N errors:`/`failures:` (`1) MathTest::testThrows`, message on the next line).
 *
 * Counts from the summary line only: `Tests: 8, Assertions: 4, Errors: 2, Failures: 2, Skipped:
 * 1, Incomplete: 1.` (failed = errors + failures, skipped = skipped + incomplete, passed = the
 * rest) or `OK (8 tests, 10 assertions)`. A PHP fatal error before any test ran (`PHP Fatal
 * error:  Uncaught ParseError: … in /path/File.php:1`) is an `error` named by that file, and so is a
 * file PHPUnit refused before starting (`Cannot open file "tests/Missing.php".` for a test file or
 * `--bootstrap` that is not there, `Could not read "phpunit.xml".`).
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const testdoxTest = /^\s+([✔✘↩∅☢])\s*(.*?)\s*$/u;
const classHeader = /^(\w[^│]*?)(?: \(.+\))?$/u;
const summary = /^Tests: (\d+), Assertions: \d+(.*)\.$/;
const okSummary = /^OK \((\d+) tests?, \d+ assertions?\)$/;
const numbered = /^(\d+)\) (\S+::\S+.*)$/;
const sectionHeader =
  /^There (?:was|were) \d+ (errors?|failures?|risky tests?|skipped tests?|incomplete tests?|warnings?):$/;
const fatal = /^(?:PHP )?Fatal error:\s+(.*?)(?: in (\/\S+?\.php)(?::\d+| on line \d+))?$/;
/** PHPUnit's own refusals before any test (9.6: a test file or `--bootstrap` that is not there, a configuration it cannot read). */
const cannotStart = /^(?:Cannot open file|Could not read) "(.+)"\.$/;
const notHeaders =
  /^(?:PHPUnit \d|Time: |Runtime: |Configuration: |ERRORS!|FAILURES!|OK|Tests: |Warning|There (?:was|were) |Stack trace|Next |#\d|Random Seed)/;

/** Parses PHPUnit output. Pure; never throws. */
export function parsePhpunit(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let suite: string | undefined;
  let section: string | undefined;
  let pending: string | undefined; // a ✘ test waiting for its message
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = summary.exec(line);
    if (total) {
      const words = readCountWords(
        (total[2] as string).replace(/: (\d+)/g, ' $1').replace(/(\w+) (\d+)/g, '$2 $1'),
      );
      const failed = (words.get('errors') ?? 0) + (words.get('failures') ?? 0);
      const skipped = (words.get('skipped') ?? 0) + (words.get('incomplete') ?? 0);
      const all = Number(total[1]);
      collector.counts = { total: all, failed, skipped, passed: Math.max(0, all - failed - skipped) };
      continue;
    }
    const ok = okSummary.exec(line);
    if (ok) {
      collector.counts = { total: Number(ok[1]), passed: Number(ok[1]), failed: 0, skipped: 0 };
      continue;
    }
    const fatalError = fatal.exec(line);
    if (fatalError) {
      const name = fatalError[2] ?? 'PHP Fatal error';
      collector.add(name, 'error');
      collector.fail(name, fatalError[1] as string);
      continue;
    }
    const refused = cannotStart.exec(line);
    if (refused) {
      const name = refused[1] as string;
      collector.add(name, 'error');
      collector.fail(name, line);
      continue;
    }
    const sectionMatch = sectionHeader.exec(line);
    if (sectionMatch) {
      section = sectionMatch[1] as string;
      continue;
    }
    const entry = numbered.exec(line);
    if (entry && section !== undefined) {
      const name = entry[2] as string;
      const kind = section.startsWith('error')
        ? 'error'
        : section.startsWith('failure')
          ? 'failed'
          : undefined;
      if (kind !== undefined) {
        collector.add(name, kind);
        const message = (lines[index + 1] as string | undefined)?.trim();
        if (message) collector.fail(name, message);
      }
      continue;
    }
    const test = testdoxTest.exec(line);
    if (test) {
      const name = `${suite ?? ''} > ${test[2] as string}`;
      const mark = test[1] as string;
      pending = undefined;
      if (mark === '✔') collector.add(name, 'passed');
      else if (mark === '✘') {
        collector.add(name, 'failed');
        pending = name;
      } else if (mark === '☢') collector.add(name, 'passed');
      else collector.add(name, 'skipped');
      continue;
    }
    const detail = /^\s+│\s*(.*)$/u.exec(line);
    if (detail) {
      if (pending !== undefined && (detail[1] as string).trim() !== '') {
        collector.fail(pending, detail[1] as string);
        pending = undefined;
      }
      continue;
    }
    const header = classHeader.exec(line);
    if (header && !notHeaders.test(line) && !line.includes('::') && !/[.:]$/.test(line)) {
      suite = header[1] as string;
      pending = undefined;
    }
  }
  return collector.finish('phpunit');
}
