import { withPathLock } from './path-lock.js';

/**
 * Runs `task` holding the per-path lock ({@link withPathLock}) of every path in `paths`, taken in
 * sorted order so two multi-file tasks can never wait on each other.
 */
export function withPathLocks<T>(
  client: object,
  paths: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const run = (i: number): Promise<T> =>
    i === sorted.length ? task() : withPathLock(client, sorted[i]!, () => run(i + 1));
  return run(0);
}
