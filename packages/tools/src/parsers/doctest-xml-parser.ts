/**
 * doctest's XML reporter (`test-binary -s -r=xml`; nlohmann/json), read line by line so a cut or
 * damaged log still gives what it holds. As the official SWE-bench v4.1.0 `parse_log_doctest`
 * names them, a test is `TestCase > SubCase` (nested subcases joined with ` > ` too) and fails
 * when any `<Expression success="false">` or `<Exception>` is inside it, and passes when it holds
 * a passing expression (printed with `-s`) and no failing one; a test case without subcases is
 * listed by its own name. Counts from `<OverallResultsTestCases successes= failures=
 * skipped=>` (test cases, not subcases). A test binary that did not compile is an `error` per
 * source file with its first compiler error (build-errors.ts).
 * @module
 */
import { withBuildErrors } from './build-errors.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';
import { unescapeXml } from './xml-text.js';

const open = /^\s*<(TestCase|SubCase)\b[^>]*\bname="([^"]*)"[^>]*?(\/)?>/;
const close = /^\s*<\/(TestCase|SubCase)>/;
const expression = /^\s*<Expression\b[^>]*\bsuccess="(true|false)"/;
const exception = /^\s*<Exception\b/;
const totals =
  /<OverallResultsTestCases\b[^>]*\bsuccesses="(\d+)"[^>]*\bfailures="(\d+)"(?:[^>]*\bskipped="(\d+)")?/;

interface Frame {
  kind: string;
  name: string;
  failed: boolean;
  message: string;
  subcases: number;
  childFailed: boolean;
  passedCheck: boolean;
}

/** Parses doctest -r=xml output. Pure; never throws. */
export function parseDoctestXml(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const stack: Frame[] = [];
  const fullName = (): string => stack.map((frame) => frame.name).join(' > ');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const start = open.exec(line);
    if (start) {
      if (start[1] === 'TestCase') stack.length = 0;
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.subcases++;
      stack.push({
        kind: start[1] as string,
        name: unescapeXml(start[2] as string),
        failed: false,
        message: '',
        subcases: 0,
        childFailed: false,
        passedCheck: false,
      });
      if (start[3] === '/') finish(collector, stack, fullName());
      continue;
    }
    const end = close.exec(line);
    if (end) {
      if (stack.length > 0 && stack[stack.length - 1]?.kind === end[1]) finish(collector, stack, fullName());
      continue;
    }
    const frame = stack[stack.length - 1];
    const check = expression.exec(line);
    if (check && frame !== undefined && check[1] === 'true') frame.passedCheck = true;
    if (check && frame !== undefined && check[1] === 'false') {
      markFailed(stack, `${/\btype="(\w+)"/.exec(line)?.[1] ?? 'CHECK'}( ${nextText(lines, index + 1)} )`);
      continue;
    }
    if (exception.test(line) && frame !== undefined) {
      markFailed(stack, `exception: ${nextText(lines, index + 1)}`);
      continue;
    }
    const total = totals.exec(line);
    if (total) {
      const passed = Number(total[1]);
      const failed = Number(total[2]);
      const skipped = Number(total[3] ?? 0);
      collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
    }
  }
  return withBuildErrors(collector.finish('doctest-xml'), lines);
}

/** Fails the innermost frame; its parents learn a child failed. */
function markFailed(stack: Frame[], message: string): void {
  const frame = stack[stack.length - 1];
  if (frame === undefined) return;
  frame.failed = true;
  if (frame.message === '') frame.message = message;
  for (const parent of stack.slice(0, -1)) parent.childFailed = true;
}

/** Closes the innermost frame: a leaf (no subcases) is a test. */
function finish(collector: TestCollector, stack: Frame[], name: string): void {
  const frame = stack.pop();
  if (frame === undefined) return;
  const parent = stack[stack.length - 1];
  if (parent !== undefined && (frame.failed || frame.childFailed)) parent.childFailed = true;
  // A case whose subcases are listed is not a test itself, unless it failed outside all of them.
  if (frame.subcases > 0 && !(frame.failed && !frame.childFailed)) return;
  if (!frame.failed && !frame.passedCheck) return; // nothing shows it ran (-s prints passing checks)
  collector.add(name, frame.failed ? 'failed' : 'passed');
  if (frame.failed) collector.fail(name, frame.message);
}

function nextText(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 4); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '' && !text.startsWith('<')) return unescapeXml(text);
  }
  return '';
}
