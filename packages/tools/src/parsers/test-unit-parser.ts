/**
 * Ruby test-unit verbose output (`ruby test/x.rb -v`; fluentd, faker): `  test_name:\t\t.: (0.01)`
 * and `test: described name:\t\tF`, marks `.` passed, `F` failed, `E` error, `O` omitted and `P`
 * pending (skipped), `N` notification. Names are the bare test names, as the official SWE-bench
 * v4.1.0 `parse_log_ruby_unit` keys them. Messages from the `Failure: test_x(Class)` / `Error:
 * test_x(Class): RuntimeError: boom` blocks. Counts from `N tests, N assertions, N failures, N
 * errors, N pendings, N omissions, N notifications` (failed = failures + errors, skipped =
 * pendings + omissions). A load error before any test (a Ruby exception line) is an `error`, and so
 * is a class whose `self.startup` raised (`Error: TestDb: IOError: …`), named by the class.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const testLine = /^\s*(?:test: )?(.+?):\s+([.EFOPN])(?::|$)/;
const summary =
  /^(\d+) tests, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) pendings, (\d+) omissions, \d+ notifications$/;
const block = /^(Failure|Error): (?:test: )?(.+?)\(([^)]*)\)(?:: (.*))?$/;
/** A class-level hook that raised (`self.startup`, `self.shutdown`): `Error: TestDb: IOError: boom`. */
const classBlock = /^(Failure|Error): ([A-Z]\w*(?:::\w+)*): (.+)$/;
const crash = /^(\S+?\.rb):\d+:in [`'][^']*': (.*\(\w+(?:::\w+)*\))$/;

/** Parses test-unit -v output. Pure; never throws. */
export function parseTestUnit(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let summarised = false;
  let firstCrash: [string, string] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = summary.exec(line.trim());
    if (total) {
      const all = Number(total[1]);
      const failed = Number(total[2]) + Number(total[3]);
      const skipped = Number(total[4]) + Number(total[5]);
      collector.counts = { total: all, failed, skipped, passed: Math.max(0, all - failed - skipped) };
      summarised = true;
      continue;
    }
    const failure = block.exec(line.trim());
    if (failure) {
      const name = (failure[2] as string).trim();
      collector.add(name, failure[1] === 'Error' ? 'error' : 'failed');
      collector.fail(name, failure[4] ?? failureText(lines, index + 1));
      continue;
    }
    const classFault = classBlock.exec(line.trim());
    if (classFault) {
      // Its tests are printed with no mark (they never ran); the class is the error.
      const name = classFault[2] as string;
      collector.add(name, 'error');
      collector.fail(name, classFault[3] as string);
      continue;
    }
    if (line.startsWith('=') || line.startsWith('-')) continue;
    const test = testLine.exec(line);
    if (test && /^\s|^test: /.test(line)) {
      const mark = test[2] as string;
      const name = (test[1] as string).trim();
      if (mark === '.') collector.add(name, 'passed');
      else if (mark === 'F') collector.add(name, 'failed');
      else if (mark === 'E') collector.add(name, 'error');
      else if (mark === 'O' || mark === 'P') collector.add(name, 'skipped');
      continue;
    }
    const died = crash.exec(line.trim());
    if (died && firstCrash === undefined) firstCrash = [died[1] as string, died[2] as string];
  }
  if (!summarised && firstCrash !== undefined) {
    collector.add(firstCrash[0], 'error');
    collector.fail(firstCrash[0], firstCrash[1]);
  }
  return collector.finish('test-unit');
}

/** test-unit prints the assertion message after the source listing: the first line that is not code. */
function failureText(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 20); index++) {
    const text = lines[index] as string;
    if (text.startsWith('====')) break;
    if (/^\S+\.rb:\d+:in /.test(text) || /^\s+(?:=>\s+)?\d+:/.test(text) || text.trim() === '') continue;
    return text.trim();
  }
  return '';
}
