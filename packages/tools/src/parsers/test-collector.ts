/**
 * Accumulates per-test results for a parser: each name once, the worst status winning
 * (error > failed > passed > skipped), insertion order kept.
 * @module
 */
import type {
  ParsedFailure,
  ParsedTest,
  ParsedTestOutput,
  TestCounts,
  TestFramework,
  TestStatus,
} from './test-output-types.js';

const rank: Record<TestStatus, number> = { skipped: 0, passed: 1, failed: 2, error: 3 };

/** Mutable builder of a {@link ParsedTestOutput}. */
export class TestCollector {
  private readonly tests = new Map<string, ParsedTest>();
  private readonly failures = new Map<string, string>();
  /** Failed tries before the last run, per test (pytest-rerunfailures' `RERUN` lines). */
  private readonly retriedNames = new Map<string, number>();
  /** Runs per test where the runner numbered them (surefire `Run N:`, nextest `TRY n`). */
  private readonly runs = new Map<string, number>();
  counts: TestCounts | undefined;

  /** Records a test; a worse status replaces a better one, never the reverse. */
  add(name: string, status: TestStatus, extra?: Omit<ParsedTest, 'name' | 'status'>): void {
    if (name === '') return;
    const existing = this.tests.get(name);
    if (existing === undefined) {
      const test: ParsedTest = { name, status };
      if (extra?.outcome !== undefined) test.outcome = extra.outcome;
      if (extra?.description !== undefined) test.description = extra.description;
      if (extra?.tries !== undefined) this.tried(name, extra.tries);
      this.tests.set(name, test);
      return;
    }
    if (extra?.tries !== undefined) this.tried(name, extra.tries);
    if (rank[status] >= rank[existing.status]) {
      if (status !== existing.status || extra?.outcome !== undefined) {
        if (extra?.outcome === undefined) delete existing.outcome;
        else existing.outcome = extra.outcome;
      }
      existing.status = status;
    }
    if (extra?.description !== undefined) existing.description = extra.description;
  }

  /** Records a failure message (the first one given for a name is kept unless it was empty). */
  fail(name: string, message: string): void {
    const existing = this.failures.get(name);
    if (existing === undefined || (existing === '' && message !== ''))
      this.failures.set(name, message.trim());
  }

  /**
   * Records that the runner retried `name` after a failed try (pytest-rerunfailures' `RERUN`), once
   * per such try: the test's `tries` is their number plus its last run, and a test whose final
   * status is `passed` gets outcome `flaky`. A retry is not a result.
   */
  retried(name: string): void {
    this.retriedNames.set(name, (this.retriedNames.get(name) ?? 0) + 1);
  }

  /** Records that the runner ran `name` (at least) `tries` times, numbering its runs; the largest is kept. */
  tried(name: string, tries: number): void {
    if (Number.isSafeInteger(tries) && tries > (this.runs.get(name) ?? 1)) this.runs.set(name, tries);
  }

  /** The status recorded for `name`, or `undefined`. */
  statusOf(name: string): TestStatus | undefined {
    return this.tests.get(name)?.status;
  }

  /** The result; every failed/errored test without a message gets an empty one. */
  finish(framework: TestFramework): ParsedTestOutput {
    const failures: ParsedFailure[] = [];
    for (const test of this.tests.values()) {
      const tries = Math.max(this.runs.get(test.name) ?? 1, (this.retriedNames.get(test.name) ?? 0) + 1);
      if (tries > 1) {
        test.tries = tries;
        if (test.status === 'passed' && test.outcome === undefined) test.outcome = 'flaky';
      }
      if ((test.status === 'failed' || test.status === 'error') && !this.failures.has(test.name))
        this.failures.set(test.name, '');
    }
    for (const [name, message] of this.failures) failures.push({ name, message });
    const result: ParsedTestOutput = { framework, tests: [...this.tests.values()], failures };
    const counts = this.counts;
    if (counts !== undefined) {
      for (const key of ['passed', 'failed', 'skipped', 'total'] as const) {
        const value = counts[key];
        if (value !== undefined && Number.isSafeInteger(value) && value >= 0) result[key] = value;
      }
    }
    return result;
  }
}

/** Reads `N word` pairs (`7 passed | 1 failed`) into a map from word to number, each read independently. */
export function readCountWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/(\d+) ([a-z][a-z ]*?)(?=[,;|)]|$| in |\s+\()/gi)) {
    const word = (match[2] as string).trim().toLowerCase();
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}
