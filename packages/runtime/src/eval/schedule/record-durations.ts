/**
 * This run's instance times into the durations cache, for the next run's `--schedule auto`: while
 * the run goes on (at most once per interval, so a run that is killed keeps most of its times) and
 * once more at its end.
 * @module
 */
import type { InstanceResult } from '../instance/eval-result.js';
import { type DurationEntry, writeDurationsCache } from './durations-cache.js';

/** Default for {@link DurationsRecorderOptions.intervalMs}: 60 s. */
export const durationsWriteIntervalMs = 60_000;

/** Options of {@link createDurationsRecorder}. */
export interface DurationsRecorderOptions {
  /** Least time between two writes while the run goes on, in ms. Default {@link durationsWriteIntervalMs}. */
  intervalMs?: number;
  /** The clock, in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/** Collects finished instances' times and writes them into the cache. */
export interface DurationsRecorder {
  /**
   * Takes `result`'s `script_ms` under the key `keyOf` gives its id (ids without a key, results
   * without `script_ms` and infrastructure errors, whose time says how long the sandbox took to
   * fail, are left out); starts a write in the background when the last one began at least the
   * interval ago and none is under way. Never throws.
   */
  add(result: InstanceResult): void;
  /**
   * Waits for a write under way, then writes what is left.
   * @returns `null` when the last write succeeded (it holds every entry an earlier failed write
   *   had) or there was nothing to write, else why it failed (a sentence with the cache's path);
   *   never throws
   */
  flush(): Promise<string | null>;
}

/**
 * A recorder of instance times into the cache in `cacheDir` (see `writeDurationsCache`).
 * @param keyOf the instance's timing key (`instanceTimingKey`), or `undefined` to leave it out
 */
export function createDurationsRecorder(
  cacheDir: string,
  keyOf: (instanceId: string) => string | undefined,
  options: DurationsRecorderOptions = {},
): DurationsRecorder {
  const intervalMs = options.intervalMs ?? durationsWriteIntervalMs;
  const now = options.now ?? Date.now;
  let pending = new Map<string, DurationEntry>();
  let writing: Promise<void> | undefined;
  let lastWrite = now();
  let failure: string | null = null;
  const write = (): Promise<void> => {
    const updates = pending;
    pending = new Map();
    lastWrite = now();
    return writeDurationsCache(cacheDir, updates).then((why) => {
      // the last write decides: a failed write's entries go into the next one
      failure = why;
      if (why !== null) for (const [key, entry] of updates) if (!pending.has(key)) pending.set(key, entry);
    });
  };
  return {
    add(result) {
      const key = keyOf(result.instance_id);
      if (key === undefined || result.script_ms === undefined || result.infra_error) return;
      pending.set(key, { id: result.instance_id, ms: result.script_ms, at: now() });
      if (writing !== undefined || now() - lastWrite < intervalMs) return;
      writing = write().finally(() => {
        writing = undefined;
      });
    },
    async flush() {
      await writing;
      if (pending.size > 0) await write();
      return failure;
    },
  };
}
