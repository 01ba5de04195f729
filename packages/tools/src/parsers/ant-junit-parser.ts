/**
 * Ant's `<junit>` task (lombok: `ant test.instance` with lombok's `SimpleTestFormatter`, per
 * SWE-bench v4.1.0 constants/java.py): `[junit] [PASS] testName`, `[junit] [FAIL] testName`,
 * `[junit] [ERR] testName` (official `parse_log_ant`; this formatter prints nothing for an
 * ignored test, and no counts: those come from `printsummary="yes"`, which SWE-bench's lombok
 * target sets, a `[junit] Running com.a.T` line then the class's `Tests run:` line). Ant's own
 * formatters, named `com.a.T.testX`: brief (`[junit] Testcase: testX(com.a.T):	FAILED`,
 * `…:	Caused an ERROR`, `…:SKIPPED: reason`, the message on the next line; passes are not
 * printed) and plain (`[junit] Testcase: testX took 0.01 sec`, then `	FAILED` / `	Caused an
 * ERROR` / `	SKIPPED: reason` on the next line when it did not pass, the class from the
 * `[junit] Testsuite:` line; a pass is only the absence of that line, so passes are listed only
 * for a class whose own count line agrees with the testcases seen: a damaged log never lists a
 * lost failure as a pass). Counts from `[junit] Tests run: N, Failures: N, Errors: N, Skipped:
 * N, Time elapsed: …` (added over the classes of the `[junit] Testsuite:` or `[junit] Running`
 * lines; a repeated line is merged, not added). A build that fails outside tests (`[javac] …
 * error: …` then `BUILD FAILED`) is an `error` named `javac` with the first compiler error as
 * its message.
 * @module
 */

import { mergeRunTotals } from './merge-run-totals.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const simple = /^\[junit\]\s+\[(PASS|FAIL|ERR)\]\s+(.*?)\s*$/;
const brief = /^\[junit\] Testcase: (\S+)\(([\w.$]+)\):\s*(FAILED|Caused an ERROR|SKIPPED)(?::.*)?$/;
const plainTestcase = /^\[junit\] Testcase: (\S+) took [\d.]+ sec$/;
const plainOutcome = /^\[junit\]\s+(FAILED|Caused an ERROR|SKIPPED)(?::.*)?$/;
const counts =
  /^\[junit\] Tests run: (\d+), Failures: (\d+), Errors: (\d+)(?:, Skipped: (\d+))?, Time elapsed/;
const javacError = /^\[javac\] (\S+\.java:\d+: error: .*)$/;

/** Parses Ant junit output. Pure; never throws. */
export function parseAntJunit(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  /** Per test class (its `[junit] Testsuite:` line): a repeated count line is merged, never added. */
  const totals = new Map<string, { total: number; failed: number; skipped: number }>();
  let suite = '';
  /** Plain formatter testcases per class: the passes wait for the class's count line to agree. */
  const plainRuns = new Map<string, { passes: string[]; others: number }>();
  let compileError: string | undefined;
  let buildFailed = false;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const result = simple.exec(line);
    if (result) {
      const name = result[2] as string;
      const kind = result[1] as string;
      collector.add(name, kind === 'PASS' ? 'passed' : kind === 'FAIL' ? 'failed' : 'error');
      if (kind !== 'PASS') collector.fail(name, message(lines, index + 1));
      continue;
    }
    const testcase = brief.exec(line);
    if (testcase) {
      const name = `${testcase[2] as string}.${testcase[1] as string}`;
      addOutcome(collector, name, testcase[3] as string, message(lines, index + 1));
      continue;
    }
    const timed = plainTestcase.exec(line);
    if (timed) {
      const name = suite === '' ? (timed[1] as string) : `${suite}.${timed[1] as string}`;
      const outcome = plainOutcome.exec((lines[index + 1] as string | undefined)?.trim() ?? '');
      const run = plainRuns.get(suite) ?? { passes: [], others: 0 };
      plainRuns.set(suite, run);
      if (outcome) {
        addOutcome(collector, name, outcome[1] as string, message(lines, index + 2));
        run.others++;
      } else run.passes.push(name);
      continue;
    }
    const testsuite = /^\[junit\] (?:Testsuite: |Running )(\S+)$/.exec(line);
    if (testsuite) {
      suite = testsuite[1] as string;
      continue;
    }
    const count = counts.exec(line);
    if (count) {
      mergeRunTotals(totals, suite, {
        total: Number(count[1]),
        failed: Number(count[2]) + Number(count[3]),
        skipped: Number(count[4] ?? 0),
      });
      continue;
    }
    const javac = javacError.exec(line);
    if (javac && compileError === undefined) compileError = javac[1] as string;
    if (line === 'BUILD FAILED') buildFailed = true;
  }
  for (const [name, run] of plainRuns) {
    const printed = totals.get(name);
    const agrees =
      printed !== undefined &&
      run.passes.length + run.others === printed.total &&
      run.passes.length === printed.total - printed.failed - printed.skipped;
    if (agrees) for (const test of run.passes) collector.add(test, 'passed');
  }
  if (buildFailed && compileError !== undefined) {
    collector.add('javac', 'error');
    collector.fail('javac', compileError);
  }
  if (totals.size > 0) {
    let total = 0;
    let failed = 0;
    let skipped = 0;
    for (const run of totals.values()) {
      total += run.total;
      failed += run.failed;
      skipped += run.skipped;
    }
    collector.counts = { total, failed, skipped, passed: Math.max(0, total - failed - skipped) };
  }
  return collector.finish('ant-junit');
}

function addOutcome(collector: TestCollector, name: string, kind: string, reason: string): void {
  collector.add(name, kind === 'FAILED' ? 'failed' : kind === 'SKIPPED' ? 'skipped' : 'error');
  if (kind !== 'SKIPPED') collector.fail(name, reason);
}

function message(lines: readonly string[], start: number): string {
  const next = (lines[start] as string | undefined)?.replace(/^\s*\[junit\]\s*/, '').trim();
  return next !== undefined && !/^\[(?:PASS|FAIL|ERR)\]|^Testcase:/.test(next) ? next : '';
}
