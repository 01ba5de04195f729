/**
 * Summary counts of one test run (a Maven or Ant test class, say), merged across repeated lines.
 * @module
 */

/** The counts a runner prints for one run. */
export interface RunTotals {
  total: number;
  failed: number;
  skipped: number;
}

/**
 * Records a run's summary under `key`. A second summary for the same run (a repeated line, or a
 * run whose header line was lost) keeps the larger of each number, so the passes derived from it
 * can only shrink, never grow past what the runner printed.
 */
export function mergeRunTotals(totals: Map<string, RunTotals>, key: string, run: RunTotals): void {
  const seen = totals.get(key);
  totals.set(
    key,
    seen === undefined
      ? run
      : {
          total: Math.max(seen.total, run.total),
          failed: Math.max(seen.failed, run.failed),
          skipped: Math.max(seen.skipped, run.skipped),
        },
  );
}
