/**
 * Maven Surefire console output (`mvn test`; gson, druid, javaparser). The official SWE-bench
 * v4.1.0 `parse_log_maven` runs each test alone under `set -x` and names it by the command's
 * `-Dtest=Class#method` with the `BUILD SUCCESS`/`BUILD FAILURE` that follows; that pairing is
 * read here too. Surefire's own lines add: a failing test (`[ERROR] testX(com.a.MathTest)  Time
 * elapsed: 0.01 s  <<< FAILURE!` on surefire 2 with JUnit 4; `[ERROR] testX  Time elapsed: …` with JUnit 5, its
 * class from the `Running com.a.MathTest` line before; `[ERROR] com.a.MathTest.testX  Time
 * elapsed: … <<< ERROR!` on surefire 3; named `com.a.MathTest.testX`, the next line its message), and a class
 * whose `Tests run: N, Failures: 0, Errors: 0, Skipped: 0, … - in com.a.MathTest` line shows no
 * failure, listed as passed by its class name (surefire prints no passing test by name).
 *
 * Counts from the `Results:` summary `Tests run: 5, Failures: 1, Errors: 1, Skipped: 1` (the
 * line without `Time elapsed`; the summaries of several modules or `-Dtest` runs are added, a
 * repeated one within a run is merged, keeping the larger numbers). A build that fails outside
 * tests (`[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:…:
 * Compilation failure`, or `COMPILATION ERROR`) is an `error` named by the plugin and goal,
 * its message the first `[ERROR] /path/X.java:[3,5] …` line when there is one. A test surefire
 * reran (`-Dsurefire.rerunFailingTestsCount=N`) is one test whose `tries` is its last `Run N:`
 * line in `Results:`; one listed under `Flakes:` is passed, outcome `flaky`.
 * @module
 */

import { mergeRunTotals } from './merge-run-totals.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const level = /^\[(?:INFO|ERROR|WARNING|WARN)\] ?/;
const dTest = /-Dtest=(\S+)/;
const build = /^BUILD (SUCCESS|FAILURE)$/;
const failedTest =
  /^(?:(\w+)\(([\w.$]+)\)|([\w.$]+)\.([\w$]+(?:\[[^\]]*\])?)|([\w$]+(?:\(\))?(?:\[[^\]]*\])?))\s+(?:-- )?Time elapsed: [\d.,]+ s(?:ec)?\s+<<< (FAILURE|ERROR)!$/;
const running = /^Running ([\w.$]+)$/;
const classLine =
  /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed: [^-]*(?:<<< \w+! )?--? in ([\w.$]+)$/;
const results = /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?$/;
const goal =
  /^Failed to execute goal ([\w.-]+:[\w.-]+):[\w.-]+:([\w-]+)(?: \([^)]*\))? on project [\w.-]+: (.*)$/;
const compileError = /^(\/\S+\.java):\[\d+,\d+\] (.*)$/;

/** Parses Maven/Surefire output. Pure; never throws. */
export function parseMaven(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let selected: string | undefined;
  let testClass: string | undefined; // from `Running com.a.MathTest`: JUnit 5 names only the method
  let firstCompileError: string | undefined;
  /** Summaries by the run they belong to (-Dtest selection or module): a repeated line is merged, never added. */
  const totals = new Map<string, { total: number; failed: number; skipped: number }>();
  let runKey = '';
  const reruns = rerunTests(lines);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    const line = raw.replace(level, '').trim();
    const command = dTest.exec(raw);
    if (command && /^\+|\bmvn\b/.test(raw.trim())) {
      selected = command[1] as string;
      runKey = `test ${selected}`;
    }
    const module = /^-+< ([\w.:-]+) >-+$|^Building (\S+)/.exec(line);
    if (module && !runKey.startsWith('test ')) runKey = `module ${module[1] ?? module[2]}`;
    const outcome = build.exec(line);
    if (outcome) {
      if (selected !== undefined) collector.add(selected, outcome[1] === 'SUCCESS' ? 'passed' : 'failed');
      selected = undefined;
      continue;
    }
    const started = running.exec(line);
    if (started) {
      testClass = started[1] as string;
      continue;
    }
    const failed = failedTest.exec(line);
    if (failed) {
      const name =
        failed[1] !== undefined
          ? `${failed[2] as string}.${failed[1]}`
          : failed[3] !== undefined
            ? `${failed[3]}.${failed[4] as string}`
            : `${testClass ?? ''}${testClass ? '.' : ''}${(failed[5] as string).replace(/\(\)$/, '')}`;
      const rerun = reruns.get(name);
      if (rerun?.flaky) {
        collector.add(name, 'passed', { outcome: 'flaky', tries: rerun.tries });
        continue;
      }
      collector.add(
        name,
        failed[6] === 'ERROR' ? 'error' : 'failed',
        rerun ? { tries: rerun.tries } : undefined,
      );
      collector.fail(name, (lines[index + 1] as string | undefined)?.replace(level, '').trim() ?? '');
      continue;
    }
    const perClass = classLine.exec(line);
    if (perClass) {
      const bad = Number(perClass[2]) + Number(perClass[3]);
      const all = Number(perClass[1]);
      const skipped = Number(perClass[4]);
      if (bad === 0 && all > skipped) collector.add(perClass[5] as string, 'passed');
      continue;
    }
    const summary = results.exec(line);
    if (summary) {
      const total = Number(summary[1]);
      const failedCount = Number(summary[2]) + Number(summary[3]);
      mergeRunTotals(totals, runKey, { total, failed: failedCount, skipped: Number(summary[4]) });
      continue;
    }
    const compile = compileError.exec(line);
    if (compile && raw.startsWith('[ERROR]') && firstCompileError === undefined)
      firstCompileError = `${compile[1] as string}: ${compile[2] as string}`;
    const failedGoal = goal.exec(line);
    if (failedGoal) {
      const name = `${failedGoal[1] as string}:${failedGoal[2] as string}`;
      if (
        /maven-surefire-plugin|maven-failsafe-plugin/.test(name) &&
        /There are test failures|There was a timeout/.test(line)
      )
        continue;
      collector.add(name, 'error');
      collector.fail(name, firstCompileError ?? (failedGoal[3] as string));
    }
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
  return collector.finish('maven');
}

/**
 * Tests that surefire reran (`-Dsurefire.rerunFailingTestsCount=N`), from its `Results:` sections:
 * each entry of `Failures:`, `Errors:` and `Flakes:` is followed by one `Run N:` line per try
 * (`Run 2: PASS` for the try that passed). A `Flakes:` test failed, then passed on a rerun, and
 * surefire counts it as passed (`Tests run: 5, Failures: 1, …, Flakes: 1`). Names as
 * `com.a.MathTest.testX`; surefire 2's `testX(com.a.MathTest)` is turned into that form.
 */
function rerunTests(lines: readonly string[]): Map<string, { flaky: boolean; tries: number }> {
  const found = new Map<string, { flaky: boolean; tries: number }>();
  let section: string | undefined;
  let entry: { flaky: boolean; tries: number } | undefined;
  for (const raw of lines) {
    const line = raw.replace(level, '').trim();
    const header = /^(Failures|Errors|Flakes):$/.exec(line);
    if (header) {
      section = header[1];
      entry = undefined;
      continue;
    }
    if (section === undefined || line === '') continue;
    const run = /^Run (\d+): /.exec(line);
    if (run) {
      if (entry !== undefined) entry.tries = Math.max(entry.tries, Number(run[1]));
      continue;
    }
    const junit4 = /^(\w+)\(([\w.$]+)\)$/.exec(line);
    const name = junit4
      ? `${junit4[2] as string}.${junit4[1] as string}`
      : /^[\w.$]+(?:\[[^\]]*\])?$/.test(line)
        ? line
        : undefined;
    if (name === undefined) {
      section = undefined; // `Tests run: …`, or a Failures entry with its message on the line
      continue;
    }
    entry = { flaky: section === 'Flakes', tries: 1 };
    found.set(name, entry);
  }
  for (const [name, { tries }] of found) if (tries < 2) found.delete(name);
  return found;
}
