/**
 * CTest output (`ctest --output-on-failure [-V]`), with the googletest lines the tests print
 * (fmt; the official SWE-bench v4.1.0 `parse_log_googletest` reads `[       OK ] Suite.Name (0
 * ms)` and `[  FAILED  ] Suite.Name (0 ms)`). Listed: every googletest test (`OK` passed, `FAILED`
 * failed, `SKIPPED` skipped) and every CTest test by its name (`1/4 Test #1: name .... Passed`,
 * `***Failed`, `***Exception: …`/`Subprocess aborted`, `***Timeout`, `***Not Run` — the last three
 * are `error`; a `Not Run` takes ctest's reason from the line before it, `Unable to find
 * executable: …` when its target did not build). A googletest test that printed `[ RUN      ]` and no result, inside a CTest test
 * that crashed or timed out, is the test that was running: an `error` with the CTest reason.
 *
 * Counts from CTest's `25% tests passed, 3 tests failed out of 4` (CTest tests, not googletest
 * ones) and its `The following tests did not run:` list: CTest's percentage counts a test that
 * exited with its `SKIP_RETURN_CODE` (`***Skipped`, listed `(Skipped)`) as passed, so `passed` is
 * `out of` minus failed minus those; a `DISABLED` test (`***Not Run (Disabled)`, listed
 * `(Disabled)`) is outside CTest's `out of`, so it is added to `skipped` and `total`. Without CTest's line (a googletest binary run alone), from googletest's own summary of
 * one binary: `[==========] 4 tests from 1 test suite ran.`, `[  PASSED  ] 1 test.`, `[  SKIPPED
 * ] 1 test, listed below:`, `[  FAILED  ] 2 tests, listed below:`; none when several binaries
 * printed one (their lines cannot be told apart).
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const prefix = /^(\d+): /;
const gtestResult = /^\[\s*(OK|FAILED|SKIPPED)\s*\] (\S+) \((?:\d+ ms|[^)]*)\)$/;
const gtestRun = /^\[ RUN {6}\] (\S+)$/;
const ctestResult =
  /^\s*\d+\/\d+ Test\s+#(\d+): (.+?) \.*\s*(Passed|\*\*\*Failed|\*\*\*Not Run \(Disabled\)|\*\*\*Not Run|\*\*\*Timeout|.*?\*\*\*Exception:.*?|\*\*\*Skipped|Not Run)\s+[\d.]+ sec$/;
const summary = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
/** ctest's reason for a `***Not Run` (an executable never built, a REQUIRED_FILES entry missing). */
const notStarted = /^(?:Unable to find (?:executable|required file): .*|Could not find executable .*)$/;
const didNotRunHeader = /^The following tests did not run:$/;
const didNotRunEntry = /^\s*\d+ - .+ \((Skipped|Disabled)\)$/;
const gtestPassed = /^\[ {2}PASSED {2}\] (\d+) tests?\.$/;
const gtestRan = /^\[==========\] (\d+) tests? from \d+ test (?:suites?|cases?) ran\./;
const gtestListed = /^\[ {2}(FAILED|SKIPPED) {1,2}\] (\d+) tests?, listed below:$/;

/** Parses ctest output (and the googletest output inside it). Pure; never throws. */
export function parseCtest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  /** googletest tests started and not finished, by the CTest test number that printed them ('' without -V). */
  const running = new Map<string, string>();
  let ctestSummary = false;
  let gtestCount: number | undefined;
  let gtestTotal: number | undefined;
  let gtestBinaries = 0;
  const gtestListedCounts = new Map<string, number>();
  let lastMessage = '';
  /** CTest's `out of` total and failed count, and its `did not run` list by reason. */
  let ctestTotals: { failed: number; all: number } | undefined;
  let inDidNotRun = false;
  const didNotRun = { Skipped: 0, Disabled: 0 };
  let ctestSkipLines = 0;
  let previous = '';
  for (const raw of lines) {
    const before = previous;
    previous = raw;
    const numbered = prefix.exec(raw);
    const owner = numbered ? (numbered[1] as string) : '';
    const line = numbered ? raw.slice((numbered[0] as string).length) : raw;
    const run = gtestRun.exec(line.trim());
    if (run) {
      running.set(owner, run[1] as string);
      lastMessage = '';
      continue;
    }
    const gtest = gtestResult.exec(line.trim());
    if (gtest) {
      const name = gtest[2] as string;
      const status = gtest[1] === 'OK' ? 'passed' : gtest[1] === 'FAILED' ? 'failed' : 'skipped';
      collector.add(name, status);
      if (status === 'failed') collector.fail(name, lastMessage);
      if (running.get(owner) === name) running.delete(owner);
      continue;
    }
    const ctest = ctestResult.exec(line);
    if (ctest) {
      const name = ctest[2] as string;
      const outcome = (ctest[3] as string).replace(/\*\*\*/g, ' ').trim();
      if (outcome === 'Passed') collector.add(name, 'passed');
      else if (outcome === 'Skipped' || outcome === 'Not Run (Disabled)') {
        collector.add(name, 'skipped');
        ctestSkipLines++;
      } else {
        const crashed = outcome !== 'Failed';
        collector.add(name, crashed ? 'error' : 'failed');
        // ctest says why a test did not start on the line before its result.
        const why = outcome === 'Not Run' ? notStarted.exec(before)?.[0] : undefined;
        collector.fail(name, why ?? outcome.replace(/:$/, ''));
        if (crashed) {
          const inside = running.get(ctest[1] as string) ?? running.get('');
          if (inside !== undefined) {
            collector.add(inside, 'error');
            collector.fail(inside, `still running when ${name} ended: ${outcome.replace(/:$/, '')}`);
          }
        }
      }
      running.delete(ctest[1] as string);
      running.delete('');
      continue;
    }
    const total = summary.exec(line);
    if (total) {
      ctestTotals = { failed: Number(total[1]), all: Number(total[2]) };
      ctestSummary = true;
      continue;
    }
    if (didNotRunHeader.test(line)) {
      inDidNotRun = true;
      continue;
    }
    if (inDidNotRun) {
      const entry = didNotRunEntry.exec(line);
      if (entry) {
        didNotRun[entry[1] as 'Skipped' | 'Disabled']++;
        continue;
      }
      inDidNotRun = false;
    }
    const ran = gtestRan.exec(line.trim());
    if (ran) {
      gtestTotal = Number(ran[1]);
      gtestBinaries++;
      continue;
    }
    const listed = gtestListed.exec(line.trim());
    if (listed) {
      gtestListedCounts.set(listed[1] as string, Number(listed[2]));
      continue;
    }
    const passedLine = gtestPassed.exec(line.trim());
    if (passedLine) {
      gtestCount = Number(passedLine[1]);
      continue;
    }
    const text = line.trim();
    if (
      running.has(owner) &&
      text !== '' &&
      !/^\S+:\d+: Failure$|^unknown file: Failure$/.test(text) &&
      lastMessage === ''
    )
      lastMessage = text;
  }
  if (ctestTotals !== undefined) {
    const { failed, all } = ctestTotals;
    const listed = didNotRun.Skipped + didNotRun.Disabled;
    // No `did not run` list although tests printed `***Skipped`: the output was cut, skips unknown.
    const known = listed > 0 || ctestSkipLines === 0;
    collector.counts = {
      failed,
      total: all + didNotRun.Disabled,
      ...(known ? { passed: Math.max(0, all - failed - didNotRun.Skipped), skipped: listed } : {}),
    };
  }
  if (!ctestSummary && gtestBinaries <= 1) {
    const failed = gtestListedCounts.get('FAILED') ?? (gtestTotal !== undefined ? 0 : undefined);
    const skipped = gtestListedCounts.get('SKIPPED') ?? (gtestTotal !== undefined ? 0 : undefined);
    const counts = {
      ...(gtestCount !== undefined ? { passed: gtestCount } : {}),
      ...(failed !== undefined ? { failed } : {}),
      ...(skipped !== undefined ? { skipped } : {}),
      ...(gtestTotal !== undefined ? { total: gtestTotal } : {}),
    };
    if (Object.keys(counts).length > 0) collector.counts = counts;
  }
  return collector.finish('ctest');
}
