/**
 * After a run: this run's instance times into the durations cache, for the next run's
 * `--schedule auto`.
 * @module
 */
import type { InstanceResult } from '../instance/eval-result.js';
import { type DurationEntry, writeDurationsCache } from './durations-cache.js';

/**
 * Writes the `script_ms` of `results` into the cache in `cacheDir`, under the key `keyOf` gives
 * each instance id (ids without a key, results without `script_ms` and infrastructure errors,
 * whose time says how long the sandbox took to fail, are left out).
 * @returns `null` when written (or nothing to write), else why not; never throws.
 */
export async function recordDurations(
  cacheDir: string,
  results: Iterable<InstanceResult>,
  keyOf: (instanceId: string) => string | undefined,
  now: number = Date.now(),
): Promise<string | null> {
  const updates = new Map<string, DurationEntry>();
  for (const result of results) {
    const key = keyOf(result.instance_id);
    if (key === undefined || result.script_ms === undefined || result.infra_error) continue;
    updates.set(key, { id: result.instance_id, ms: result.script_ms, at: now });
  }
  return writeDurationsCache(cacheDir, updates);
}
