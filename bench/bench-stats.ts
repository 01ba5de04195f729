/**
 * Timing helpers the benchmarks share (a helper module, not a benchmark: nothing runs on import).
 * @module
 */

/**
 * The median of `values` as the benchmarks report it: the upper middle element for an even count
 * (no averaging). Does not sort `values` in place.
 * @param values samples (any unit, e.g. milliseconds); for an empty array the result is `undefined` (typed as number), as before
 */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * Wall-clock time of one awaited call of `task`, in milliseconds (`performance.now()`).
 * @throws whatever `task` throws or rejects with
 */
export const time = async (task: () => unknown): Promise<number> => {
  const started = performance.now();
  await task();
  return performance.now() - started;
};
