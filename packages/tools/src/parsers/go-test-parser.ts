/**
 * `go test` output: plain (only failures are listed), `-v` (`=== RUN` / `--- PASS: Name (0.00s)`,
 * subtests as `Parent/sub_name`) and `-json` (test2json events, one JSON object a line). go prints
 * no count summary: counts are given only for `-v` and `-json`, where every test's result is
 * printed, and are then the number of those results; plain output gets per-test failures only.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

const resultLine = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/;
const messageLine = /^\s+\S+\.go:\d+: (.*)$/;
const status: Record<string, TestStatus> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped', pass: 'passed', fail: 'failed', skip: 'skipped' };

/** Parses go test output (plain, -v or -json). Pure; never throws. */
export function parseGoTest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const messages = new Map<string, string>();
  let complete = false;
  let current: string | undefined;
  let lastResult: string | undefined;
  for (const line of lines) {
    if (line.startsWith('{')) {
      if (readJsonEvent(line, collector, messages)) complete = true;
      continue;
    }
    const run = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)/.exec(line);
    if (run) {
      complete = true;
      current = run[1];
      continue;
    }
    const result = resultLine.exec(line);
    if (result) {
      const name = result[2] as string;
      collector.add(name, status[result[1] as string] ?? 'failed');
      lastResult = name;
      current = undefined;
      continue;
    }
    const message = messageLine.exec(line);
    const owner = current ?? lastResult;
    if (message && owner !== undefined && !messages.has(owner)) messages.set(owner, message[1] as string);
  }
  for (const [name, message] of messages) {
    const result = collector.statusOf(name);
    if (result === 'failed' || result === 'error') collector.fail(name, message);
  }
  const parsed = collector.finish('go');
  if (complete) {
    const count = (wanted: TestStatus): number => parsed.tests.filter((test) => test.status === wanted).length;
    parsed.passed = count('passed');
    parsed.failed = count('failed');
    parsed.skipped = count('skipped');
    parsed.total = parsed.tests.length;
  }
  return parsed;
}

/** Reads one test2json event; `true` when it was a test event. */
function readJsonEvent(line: string, collector: TestCollector, messages: Map<string, string>): boolean {
  let event: { Action?: unknown; Test?: unknown; Output?: unknown };
  try {
    event = JSON.parse(line) as typeof event;
  } catch {
    return false; // not test2json: a line of program output that starts with "{"
  }
  if (typeof event !== 'object' || event === null || typeof event.Test !== 'string' || typeof event.Action !== 'string') return false;
  const result = status[event.Action];
  if (result) collector.add(event.Test, result);
  if (event.Action === 'output' && typeof event.Output === 'string' && !messages.has(event.Test)) {
    const message = messageLine.exec(event.Output.replace(/\n$/, ''));
    if (message) messages.set(event.Test, message[1] as string);
  }
  return true;
}
