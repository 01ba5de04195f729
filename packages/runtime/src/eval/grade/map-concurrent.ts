/**
 * `mapConcurrent`: an async map with a bound on the calls in flight, results in input order.
 * @module
 */

/**
 * Calls `task` on every item with at most `limit` calls pending at once and resolves to their
 * results in the order of `items` (not of completion).
 * @param limit calls in flight at most; a value below 1 is taken as 1
 * @throws whatever the first failing `task` rejects with (calls already started run to their end;
 *   no new one starts)
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
