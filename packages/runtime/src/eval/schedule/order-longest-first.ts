/**
 * Longest-processing-time-first order (LPT, as test sharders order test files by recorded time):
 * with N workers taking the next instance as they free up, starting the longest instances first
 * leaves the shortest ones for the end, so the workers finish close together instead of a few
 * long instances running alone while the other sandboxes sit unused.
 * @module
 */

/** What {@link orderLongestFirst} did. */
export interface LongestFirstOrder<T> {
  /** The items: those without a known duration first (in their order), then the rest longest first. */
  ordered: T[];
  /** Items with a known duration. */
  known: number;
  /** Items without one. */
  unknown: number;
}

/**
 * Orders `items` longest first by `durations` (in ms, by id). Items without a duration go first,
 * in their given order: an instance never timed may be long, and at the start it cannot end up
 * alone in the tail. Equal durations keep their given order (stable).
 */
export function orderLongestFirst<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  durations: ReadonlyMap<string, number>,
): LongestFirstOrder<T> {
  const unknown: T[] = [];
  const known: Array<{ item: T; ms: number; index: number }> = [];
  items.forEach((item, index) => {
    const ms = durations.get(idOf(item));
    if (ms === undefined) unknown.push(item);
    else known.push({ item, ms, index });
  });
  known.sort((a, b) => b.ms - a.ms || a.index - b.index);
  return {
    ordered: [...unknown, ...known.map((entry) => entry.item)],
    known: known.length,
    unknown: unknown.length,
  };
}
