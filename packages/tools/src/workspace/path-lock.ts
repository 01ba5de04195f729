/**
 * Serialises mutations of one path on one client: an edit's read-modify-write can't interleave
 * with another edit, write or delete of the same file, even across separately created tool sets.
 * @module
 */

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs `task` after every earlier task for the same `(client, path)` has settled. */
export async function withPathLock<T>(client: object, path: string, task: () => Promise<T>): Promise<T> {
  let byPath = queues.get(client);
  if (!byPath) {
    byPath = new Map();
    queues.set(client, byPath);
  }
  const previous = byPath.get(path) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  byPath.set(path, settled);
  try {
    return await run;
  } finally {
    if (byPath.get(path) === settled) byPath.delete(path);
  }
}
