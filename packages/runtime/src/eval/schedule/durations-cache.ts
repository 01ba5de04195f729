/**
 * The durations cache of `sandkit eval`: each instance's last `script_ms` (its evaluation script's
 * run in the sandbox), kept between runs so that `--schedule auto` can start a run longest first
 * without the user handing it an earlier `results.jsonl`, as CI systems split tests by the times
 * they recorded on earlier runs.
 *
 * One JSON file, `durations-v1.json`, in the cache directory. Entries are keyed by
 * {@link instanceTimingKey} (the instance's record, its specification row and the sandbox it runs
 * on), so a time recorded for another dataset's version of an instance, another image or another
 * vendor is never found. The newest {@link maxDurationEntries} entries are kept. A write takes the
 * cache's lock (`durations-v1.json.lock`, a directory, by proper-lockfile: stale after 10 s), re-reads
 * the file, merges this run's times in and renames a temporary file over it: a reader never sees
 * half a file, and runs writing at the same moment (parallel `sandkit eval`s, on one machine or
 * sharing the directory) all keep their entries. A temporary file a killed run left is removed by
 * the next write. Anything unreadable (not JSON, another format, a cut-off file) is ignored with a note and
 * replaced at the end of the run; the cache never fails a run.
 * @module
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';

/** Name of the cache file inside the cache directory (the version is part of the name, so formats never meet). */
export const durationsCacheFile = 'durations-v1.json';

/**
 * How a write waits for another run's lock: up to 12 tries over about 10 s, then it gives up with a
 * note (the run's results are not affected). A lock not touched for 10 s is a dead run's and is taken over.
 */
const lockOptions = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 12, factor: 1.5, minTimeout: 20, maxTimeout: 2_000, randomize: true },
  // the default throws from a timer (an uncaught exception): a lock lost while held for a few ms
  // costs at most a lost update, never the run
  onCompromised: () => undefined,
};

/** At most this many entries are kept (the newest by `at`): ~100 bytes each, about 2 MB. */
export const maxDurationEntries = 20_000;

/** One cached time. */
export interface DurationEntry {
  /** The instance id, for people reading the file (the key already depends on it). */
  id: string;
  /** The instance's last `script_ms`, in ms. */
  ms: number;
  /** When it was recorded, in ms since the epoch. */
  at: number;
}

/** What {@link readDurationsCache} found. */
export interface CachedDurations {
  /** By {@link instanceTimingKey}; empty when there is no file yet or it was not usable. */
  entries: Map<string, DurationEntry>;
  /** Why the file was ignored (a sentence with its path), or `null` when it was read or absent. */
  ignored: string | null;
}

/**
 * Reads the cache in `dir`. A missing file is an empty cache; an unreadable or malformed one is an
 * empty cache with `ignored` saying why. Never throws.
 */
export async function readDurationsCache(dir: string): Promise<CachedDurations> {
  const file = join(dir, durationsCacheFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: new Map(), ignored: null };
    return {
      entries: new Map(),
      ignored: `${file} could not be read (${(error as Error).message}); remove it, or give another --durations-cache`,
    };
  }
  const entries = parseCache(text);
  if (typeof entries === 'string')
    return {
      entries: new Map(),
      ignored: `${file} is not a sandkit durations cache (${printable(entries)}); this run's times replace it`,
    };
  return { entries, ignored: null };
}

/**
 * Merges `updates` (by key) into the cache in `dir` and writes it atomically, keeping the newest
 * {@link maxDurationEntries}.
 * @returns `null` when written, else why not (a sentence with the path): the caller reports it;
 *   a cache that cannot be written does not change the run's results.
 */
export async function writeDurationsCache(
  dir: string,
  updates: ReadonlyMap<string, DurationEntry>,
): Promise<string | null> {
  if (updates.size === 0) return null;
  const file = join(dir, durationsCacheFile);
  const temp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  let tempWritten = false;
  let unlock: (() => Promise<void>) | undefined;
  let locking = false;
  try {
    await mkdir(dir, { recursive: true });
    locking = true;
    unlock = await lock(file, lockOptions);
    locking = false;
    // only the lock's holder writes a temporary file: any other is a killed run's
    for (const name of await readdir(dir))
      if (name.startsWith(`${durationsCacheFile}.tmp-`)) await rm(join(dir, name), { force: true });
    // re-read under the lock: another run may have written since this one started
    const current = await readDurationsCache(dir);
    const merged = new Map([...current.entries, ...updates]);
    const kept = [...merged].sort((a, b) => b[1].at - a[1].at).slice(0, maxDurationEntries);
    const body = { format: 'sandkit-durations', version: 1, entries: Object.fromEntries(kept) };
    tempWritten = true;
    await writeFile(temp, `${JSON.stringify(body)}\n`);
    await rename(temp, file);
    return null;
  } catch (error) {
    const left = tempWritten
      ? await rm(temp, { force: true }).then(
          () => '',
          (cleanup: Error) => `; remove ${temp} too (${cleanup.message})`,
        )
      : '';
    const why = (error as Error).message;
    if (locking) {
      const held =
        (error as NodeJS.ErrnoException).code === 'ELOCKED'
          ? `its lock ${file}.lock was held for over 10 s`
          : `its lock ${file}.lock could not be taken (${why})`;
      return `the durations cache ${file} could not be written: ${held}; if no other sandkit eval is running, remove ${file}.lock; the next run will not find this run's times`;
    }
    return `the durations cache ${file} could not be written (${why}); the next run will not find this run's times${left}`;
  } finally {
    // a lock that cannot be released goes stale in 10 s and is taken over then
    await unlock?.().catch(() => undefined);
  }
}

/** The entries of a cache file's text, or why it is not one. */
function parseCache(text: string): Map<string, DurationEntry> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const body = value as { format?: unknown; version?: unknown; entries?: unknown } | null;
  if (typeof body !== 'object' || body === null || body.format !== 'sandkit-durations' || body.version !== 1)
    return 'no "format": "sandkit-durations", "version": 1';
  if (typeof body.entries !== 'object' || body.entries === null || Array.isArray(body.entries))
    return '"entries" is not an object';
  const entries = new Map<string, DurationEntry>();
  for (const [key, entry] of Object.entries(body.entries as Record<string, unknown>)) {
    const { id, ms, at } = (entry ?? {}) as Partial<Record<keyof DurationEntry, unknown>>;
    if (typeof id !== 'string' || !isTime(ms) || !isTime(at)) return `entry ${key} is not { id, ms, at }`;
    entries.set(key, { id, ms, at });
  }
  return entries;
}

/** `text` with control characters as `\uXXXX`, so that a notice never writes them to a terminal. */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
