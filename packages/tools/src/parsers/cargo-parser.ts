/**
 * `cargo test` output. Each test binary (unit tests, every integration test file, then
 * `Doc-tests`) prints its own `test result: ok. 2 passed; 0 failed; 1 ignored; …` line: the counts
 * are the SUM of all of them, each number read next to its own word (so `0 failed` is zero, not a
 * failure). Per-test lines `test NAME ... ok|FAILED|ignored`; doc-test names keep their spaces
 * (`src/lib.rs - add (line 3)`). Failure messages come from the `---- NAME stdout ----` blocks.
 *
 * Each binary's `test result` line is keyed by the `Running …`/`Doc-tests …` header above it, so
 * a line printed (or read) twice is counted once. Failures outside any test count: a target that
 * does not compile (`error: could not compile \`crate\` (test "it")`) is an `error` named
 * `crate (test "it")` with the first compiler error and its location as the message. A test binary
 * that dies before its `test result` line (`process didn't exit successfully: … (signal: 6,
 * SIGABRT…)`, as after a panic while panicking) fails every test whose thread panicked and got no
 * result, with the first panic as its message; with no such thread, the binary itself (`unittests
 * src/lib.rs`) is the failure.
 *
 * `cargo nextest run` output is read too: one status line per test (`        PASS [   0.004s]
 * (1/3) crate::bin tests::fine`; `FAIL`, `SIGSEGV`/`SIGABRT`/any `SIG…`, `ABORT`, `TIMEOUT`,
 * `LEAK-FAIL` and `FAIL + LEAK` are failures, `PASS`, `LEAK` and `FLAKY` passes, `SKIP` skips, a
 * `TRY n …` line is a retry, not the result), named by the test path without its binary as cargo
 * test names it, and the counts from `Summary [ 0.012s] 3 tests run: 1 passed, 2 failed, 0 skipped`
 * (always: the libtest output nextest re-prints in each `--- STDOUT: crate tests::x ---` block,
 * `running 1 test` … `test result: FAILED. 0 passed; 1 failed; …`, is a copy and never counted).
 * A `FLAKY n/m` test passed on a retry: status `passed`, outcome `flaky`, `tries` n; a test retried
 * with `TRY n` lines has the largest n as its `tries`, and the status of its last try when no
 * other line gives one (a test that failed every try).
 * A test killed by a signal gets the signal in its message; a failed test gets its panic.
 *
 * Tests of one name in two binaries (`tests::it_works` in crates `alpha` and `beta` of a
 * workspace) stay two tests, named as nextest names them, `alpha tests::it_works` (the binary's
 * name from its `Running unittests src/lib.rs (target/debug/deps/alpha-…)` or `Doc-tests alpha`
 * line); a name only one binary has keeps its bare name.
 * @module
 */
import { nameByOwner, ownerKey } from './owner-names.js';
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const resultLine = /^test (.+) \.\.\. (ok|FAILED|ignored|bench)(?:, .*)?$/;
const summaryLine = /^test result: (?:ok|FAILED)\. (.*)$/;
const stdoutBlock = /^---- (.+) stdout ----$/;
const binaryHeader = /^\s+(?:Running (.+?)(?: \(\S+\))?|(Doc-tests \S+))$/;
const compileError = /^error: could not compile `([^`]+)`(?: \(([^)]+)\))?/;
const firstError =
  /^error(?:\[E\d+\])?: (?!could not compile|test failed|aborting due to|\d+ targets? failed)(.+)$/;
const location = /^\s*--> (\S+)$/;
const threadPanic = /^thread '([^']+)' (?:\(\d+\) )?panicked at (.+?):?$/;
const binaryDied = /^\s*process didn't exit successfully: .*\((signal: .+)\)$/;
const nextestStatus =
  /^\s*(PASS|FAIL|SKIP|LEAK|LEAK-FAIL|FAIL \+ LEAK|FLAKY \d+\/\d+|TIMEOUT|ABORT(?: SIG \d+)?|SIG[A-Z0-9]+|TRY \d+ \S+(?: \+ LEAK)?) \[\s*>?[\d.]+s\] (?:\(\s*\d+\/\d+\) )?(\S+) (\S.*?)\s*$/;
const nextestBlock = /^--- (?:STDOUT|STDERR): +\S+ .+ ---$/;
const binaryName = /\(\S*?deps\/(.+)-[0-9a-f]+\)$|^\s+Doc-tests (\S+)$/;
const nextestSummary = /^\s*Summary \[\s*[\d.]+s\] (\d+) tests? run: (.*)$/;

/** Parses cargo test output. Pure; never throws. */
export function parseCargo(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const summaries = new Map<string, { passed: number; failed: number; skipped: number }>();
  let binary = '';
  /** The crate or test target of the binary whose output follows (`alpha`); '' before any. */
  let owner = '';
  let binaryResult = false;
  let compilerError: string | undefined;
  /** Threads that panicked in the current binary, each with its first panic, before any result. */
  let panics = new Map<string, string>();
  /** Every thread's first panic (nextest prints a failed test's output after its status line). */
  const allPanics = new Map<string, string>();
  let nextestCounts: { passed: number; failed: number; skipped: number; total: number } | undefined;
  /** Inside nextest's `--- STDOUT: crate tests::x ---` block: libtest's lines there are a copy. */
  let nextestEcho = false;
  /** nextest: each retried test's last `TRY n` word (a test that failed every try has no other line). */
  const lastTry = new Map<string, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (nextestBlock.test(line)) {
      nextestEcho = true;
      continue;
    }
    if (nextestEcho && (resultLine.test(line) || summaryLine.test(line))) continue;
    const result = resultLine.exec(line);
    if (result) {
      const name = result[1] as string;
      const status = result[2];
      collector.add(
        ownerKey(owner, name),
        status === 'FAILED' ? 'failed' : status === 'ignored' ? 'skipped' : 'passed',
      );
      continue;
    }
    const summary = summaryLine.exec(line);
    if (summary) {
      const words = readCountWords(summary[1] as string);
      // Two result lines under one header (a line repeated, a header lost): the larger of each.
      const key = binary;
      const before = summaries.get(key) ?? { passed: 0, failed: 0, skipped: 0 };
      summaries.set(key, {
        passed: Math.max(before.passed, words.get('passed') ?? 0),
        failed: Math.max(before.failed, words.get('failed') ?? 0),
        skipped: Math.max(before.skipped, words.get('ignored') ?? 0),
      });
      binaryResult = true;
      continue;
    }
    const header = binaryHeader.exec(line);
    if (header) {
      binary = (header[1] ?? header[2]) as string;
      const named = binaryName.exec(line);
      owner = named ? ((named[1] ?? named[2]) as string) : binary;
      binaryResult = false;
      panics = new Map();
      continue;
    }
    const block = stdoutBlock.exec(line);
    if (block) {
      collector.fail(ownerKey(owner, block[1] as string), panicMessage(lines, index + 1));
      continue;
    }
    const panic = threadPanic.exec(line.trim());
    if (panic) {
      const thread = panic[1] as string;
      const next = (lines[index + 1] ?? '').trim();
      const message = `panicked at ${panic[2] as string}${next === '' ? '' : `: ${next}`}`;
      if (!panics.has(thread)) panics.set(thread, message);
      if (!allPanics.has(ownerKey(owner, thread))) allPanics.set(ownerKey(owner, thread), message);
      continue;
    }
    const status = nextestStatus.exec(line);
    if (status || /^-{12}$/.test(line)) nextestEcho = false;
    if (status) {
      const word = status[1] as string;
      if (word.startsWith('TRY ')) lastTry.set(status[3] as string, word.replace(/^TRY \d+ /, ''));
      readNextestStatus(collector, word, status[3] as string);
      continue;
    }
    const nextestRun = nextestSummary.exec(line);
    if (nextestRun) {
      const words = readCountWords(nextestRun[2] as string);
      const skipped = words.get('skipped') ?? 0;
      nextestCounts = {
        passed: words.get('passed') ?? 0,
        failed: (words.get('failed') ?? 0) + (words.get('timed out') ?? 0),
        skipped,
        total: Number(nextestRun[1]) + skipped,
      };
      continue;
    }
    const died = binaryDied.exec(line);
    if (died && !binaryResult) {
      const named = [...panics].filter(
        ([thread]) => thread !== 'main' && collector.statusOf(ownerKey(owner, thread)) === undefined,
      );
      for (const [thread, message] of named) {
        collector.add(ownerKey(owner, thread), 'failed');
        collector.fail(
          ownerKey(owner, thread),
          `${message} (the test binary then died: ${died[1] as string})`,
        );
      }
      if (named.length === 0) {
        const name = binary === '' ? 'test binary' : binary;
        collector.add(name, 'error');
        collector.fail(name, `the test binary died before its test result line (${died[1] as string})`);
      }
      binaryResult = true;
      continue;
    }
    const error = firstError.exec(line);
    if (error && compilerError === undefined) {
      const at = location.exec(lines[index + 1] ?? '');
      compilerError = at ? `${line.trim()} at ${at[1] as string}` : line.trim();
      continue;
    }
    const failedBuild = compileError.exec(line);
    if (failedBuild) {
      const name =
        failedBuild[2] === undefined
          ? (failedBuild[1] as string)
          : `${failedBuild[1] as string} (${failedBuild[2]})`;
      collector.add(name, 'error');
      collector.fail(name, compilerError ?? line.trim());
      compilerError = undefined;
    }
  }
  // nextest prints a failed test's output after its status line: give it its panic.
  // A retried test with no line but its tries (every try failed): its last try is its result.
  for (const [name, word] of lastTry)
    if (collector.statusOf(name) === undefined) readNextestStatus(collector, word, name);
  for (const [thread, message] of allPanics) {
    const result = collector.statusOf(thread);
    if (result === 'failed' || result === 'error') collector.fail(thread, message);
  }
  if (nextestCounts !== undefined) collector.counts = nextestCounts;
  else if (summaries.size > 0) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const counts of summaries.values()) {
      passed += counts.passed;
      failed += counts.failed;
      skipped += counts.skipped;
    }
    collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
  }
  return nameByOwner(
    collector.finish('cargo'),
    (owner) => owner,
    (owner, name) => `${owner} ${name}`,
  );
}

/**
 * Records one nextest status line. A retry (`TRY n …`) is not a result, only its try number;
 * `FLAKY n/m` passed on try n (nextest's `{attempt}/{total attempts}`).
 */
function readNextestStatus(collector: TestCollector, word: string, name: string): void {
  const attempt = /^(?:TRY|FLAKY) (\d+)/.exec(word);
  if (attempt) collector.tried(name, Number(attempt[1]));
  if (word.startsWith('TRY ')) return;
  if (word.startsWith('FLAKY')) collector.add(name, 'passed', { outcome: 'flaky' });
  else if (word === 'PASS' || word === 'LEAK') collector.add(name, 'passed');
  else if (word === 'SKIP') collector.add(name, 'skipped');
  else {
    collector.add(name, 'failed');
    if (word.startsWith('SIG') || word.startsWith('ABORT'))
      collector.fail(name, `killed by a signal (${word})`);
    else if (word === 'TIMEOUT') collector.fail(name, 'timed out');
  }
}

/** The panic line and the message line after it, from a failure's stdout block. */
function panicMessage(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 30); index++) {
    const line = lines[index] as string;
    if (line.startsWith('---- ') || line === 'failures:') break;
    if (/^thread '.*' (?:\(\d+\) )?panicked at /.test(line)) {
      const next = (lines[index + 1] ?? '').trim();
      return next === '' ? line : `${line} ${next}`;
    }
  }
  return '';
}
