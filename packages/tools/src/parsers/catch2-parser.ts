/**
 * Catch2 output (v2/v3): the console reporter (failing test cases, with sections, between dashed
 * rules; `-s` also lists passing ones), `-r compact` (which names no test case: its failed assertions are listed as failures named by
 * `file:line`), and `-r junit` (`<testcase name="…">` with
 * `<failure>`/`<error>`/`<skipped>`). Console names are the test case name, sections joined with
 * `/` as Catch2's JUnit reporter joins them. Counts from `test cases: 4 | 1 passed | 3 failed`
 * (or `All tests passed (N assertions in M test cases)`, compact `Passed N test cases` / `Failed
 * N test cases`, JUnit `<testsuite … errors= failures= tests= skipped=>`). A crash (`due to a
 * fatal error condition:` / a signal) is an `error` for the test case shown above it. A test file
 * that did not compile (`g++ … && ./tests` printing only g++'s errors) is an `error` per source
 * file with its first compiler error (build-errors.ts).
 * @module
 */
import { withBuildErrors } from './build-errors.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';
import { unescapeXml } from './xml-text.js';

const rule = /^-{79}$/;
const dotsRule = /^\.{79}$/;
const consoleTotals =
  /^test cases:\s+(\d+) \|\s+(?:(\d+) passed)?(?: \|\s+)?(?:(\d+) failed)?(?: as expected)?(?: \|\s+(\d+) skipped)?/;
const allPassed = /^All tests passed \(\d+ assertions? in (\d+) test cases?\)$/;
const compactTotals = /^(Passed|Failed) (?:all )?(\d+) test cases?(?:, failed (\d+) assertions?)?.*\.$/;
const junitCase = /<testcase\b[^>]*\bname="([^"]*)"/;
const junitSuite = /<testsuite\b[^>]*\berrors="(\d+)"[^>]*\bfailures="(\d+)"[^>]*\btests="(\d+)"/;

/** Parses Catch2 output. Pure; never throws. */
export function parseCatch2(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let openCase: string | undefined; // junit: the testcase being read
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const suite = junitSuite.exec(line);
    if (suite) {
      const errors = Number(suite[1]);
      const failures = Number(suite[2]);
      const tests = Number(suite[3]);
      const skipped = Number(/\bskipped="(\d+)"/.exec(line)?.[1] ?? 0);
      collector.counts = {
        total: tests,
        failed: errors + failures,
        skipped,
        passed: Math.max(0, tests - errors - failures - skipped),
      };
      continue;
    }
    const testcase = junitCase.exec(line);
    if (testcase) {
      const name = unescapeXml(testcase[1] as string);
      // Self-closed: nothing went wrong. Otherwise its children tell (a cut line is neither).
      if (line.trimEnd().endsWith('/>')) collector.add(name, 'passed');
      openCase = line.trimEnd().endsWith('/>') ? undefined : name;
      continue;
    }
    if (openCase !== undefined) {
      const child = /<(failure|error|skipped)\b(?:[^>]*\bmessage="([^"]*)")?/.exec(line);
      if (child) {
        if (child[1] === 'skipped') collector.add(openCase, 'skipped');
        else {
          collector.add(openCase, child[1] === 'error' ? 'error' : 'failed');
          collector.fail(openCase, unescapeXml(child[2] ?? nextText(lines, index + 1)));
        }
      }
      if (line.includes('</testcase>')) openCase = undefined;
      continue;
    }
    if (rule.test(line)) {
      // console: rule, case name (and indented sections), rule, location, dotted rule, details
      const names: string[] = [];
      let cursor = index + 1;
      for (; cursor < lines.length && !rule.test(lines[cursor] as string) && names.length < 20; cursor++) {
        names.push((lines[cursor] as string).trim());
      }
      if (cursor >= lines.length || !rule.test(lines[cursor] as string) || names.length === 0) continue;
      const dotted = lines.slice(cursor + 1, cursor + 4).some((text) => dotsRule.test(text));
      if (!dotted) continue;
      const name = names.filter((part) => part !== '').join('/');
      const block = lines.slice(cursor + 1, cursor + 40);
      const end = block.findIndex((text, at) => at > 0 && (rule.test(text) || /^={79}$/.test(text)));
      const body = end < 0 ? block : block.slice(0, end);
      const failedAt = body.findIndex((text) => /: FAILED:$/.test(text));
      const fatal = body.some((text) => /due to a fatal error condition:/.test(text));
      if (fatal) {
        collector.add(name, 'error');
        collector.fail(name, body.find((text) => /^\s+SIG\w+/.test(text))?.trim() ?? 'fatal error condition');
      } else if (failedAt >= 0) {
        collector.add(name, 'failed');
        collector.fail(
          name,
          body
            .slice(failedAt + 1)
            .map((text) => text.trim())
            .filter((text) => text !== '')
            .join(' ')
            .slice(0, 300),
        );
      } else if (body.some((text) => /: PASSED:$/.test(text))) collector.add(name, 'passed');
      index = cursor;
      continue;
    }
    const totals = consoleTotals.exec(line);
    if (totals) {
      const all = Number(totals[1]);
      const passed = Number(totals[2] ?? 0);
      const failed = Number(totals[3] ?? 0);
      collector.counts = { total: all, passed, failed, skipped: Number(totals[4] ?? 0) };
      continue;
    }
    const every = allPassed.exec(line);
    if (every) {
      collector.counts = { total: Number(every[1]), passed: Number(every[1]), failed: 0, skipped: 0 };
      continue;
    }
    const assertion = /^(\S+:\d+): failed: (.*)$/.exec(line);
    if (assertion) {
      collector.fail(assertion[1] as string, assertion[2] as string); // compact names no test case, only the place
      continue;
    }
    const compact = compactTotals.exec(line);
    if (compact) {
      const count = Number(compact[2]);
      collector.counts = compact[1] === 'Passed' ? { passed: count, failed: 0 } : { failed: count };
    }
  }
  return withBuildErrors(collector.finish('catch2'), lines);
}

function nextText(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 5); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '' && text !== 'FAILED:') return text;
  }
  return '';
}
