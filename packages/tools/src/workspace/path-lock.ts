/**
 * Serialises mutations of one path on one client: an edit's read-modify-write can't interleave
 * with another edit, write or delete of the same file, even across separately created tool sets.
 * A file with hard links is one file under several paths: {@link withInodeLock} also serialises on
 * its inode, so edits through two names cannot overwrite each other.
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

/**
 * Runs `task` holding the lock of `inode` (`device:inode`, from `stat %d:%i`) when the file has
 * hard links (`links` over 1), so edits and writes through any of its names are serialised; otherwise
 * runs it at once. Call it inside {@link withPathLock} (path lock first, then inode: no cycle).
 */
export function withInodeLock<T>(
  client: object,
  links: number,
  inode: string | undefined,
  task: () => Promise<T>,
): Promise<T> {
  // a NUL cannot be in a path, so the key cannot be a path's
  return links > 1 && inode ? withPathLock(client, `\0inode ${inode}`, task) : task();
}
