/**
 * Which order a run's instances start in, and why (`--schedule`).
 *
 * `auto` (the default) and `longest-first` order longest first by earlier times: an earlier run's
 * `results.jsonl` when `--durations` names one (it wins), else the durations cache. One instance
 * with a time is enough: those without one start first, in the dataset's order, then the rest
 * longest first. An instance never timed may be long; started first, it runs beside the others
 * instead of alone at the end, and the known ones, shortest last, fill the slots as the run drains.
 * In a list-scheduling model of 500 instances on 100 slots (`bench/schedule-model.ts`) that order
 * beat the dataset's at every share of known times, even when the known ones were only the
 * longest or only the shortest; putting the unknown ones last gave most of the gain back. With no
 * time for any instance (a first run), both run in the dataset's order. `dataset` always does.
 * @module
 */
import type { SweBenchInstance } from '../load/swe-bench-instance.js';
import { readDurationsCache } from './durations-cache.js';
import { orderLongestFirst } from './order-longest-first.js';
import { readDurations } from './read-durations.js';

/** The order a run used, and why, as the summary and stderr say it. */
export interface ScheduleChoice {
  /** `dataset`: the dataset's order; `longest-first`: by earlier times, those without one first. */
  order: 'dataset' | 'longest-first';
  /** One sentence: what was asked, where the times came from, how many instances had one. */
  reason: string;
}

/** What {@link planSchedule} needs. */
export interface ScheduleInput {
  requested: 'auto' | 'dataset' | 'longest-first';
  /** Absolute path of `--durations`, or `null`. */
  durations: string | null;
  /** The durations cache directory, or `null` when it is off. */
  cacheDir: string | null;
  /** The instances to run, in the dataset's order. */
  todo: readonly SweBenchInstance[];
  /** The cache key of an instance (see `instanceTimingKey`). */
  keyOf(instance: SweBenchInstance): string;
}

/** What {@link planSchedule} decided. */
export interface SchedulePlan {
  ordered: SweBenchInstance[];
  choice: ScheduleChoice;
  /** Notes for stderr: a cache file that was ignored, `--durations` lines not used. */
  notes: string[];
}

/**
 * Orders `input.todo`.
 * @throws SandkitError `invalid_option` when `--durations` cannot be read (`readDurations`).
 */
export async function planSchedule(input: ScheduleInput): Promise<SchedulePlan> {
  const todo = [...input.todo];
  const asked = input.requested === 'auto' ? '--schedule auto' : `--schedule ${input.requested}`;
  if (input.requested === 'dataset')
    return { ordered: todo, choice: { order: 'dataset', reason: asked }, notes: [] };
  const notes: string[] = [];
  let times: Map<string, number>;
  let source: string;
  if (input.durations !== null) {
    const previous = await readDurations(input.durations);
    times = previous.durations;
    source = `--durations ${input.durations} (${previous.measure})`;
    if (previous.ignored.length > 0)
      notes.push(`--durations ${input.durations}: ${previous.ignored.length} line(s) not used`);
  } else if (input.cacheDir !== null) {
    const cached = await readDurationsCache(input.cacheDir);
    if (cached.ignored !== null) notes.push(`durations cache ignored: ${cached.ignored}`);
    times = new Map();
    for (const instance of todo) {
      const entry = cached.entries.get(input.keyOf(instance));
      if (entry !== undefined) times.set(instance.instance_id, entry.ms);
    }
    source = `the durations cache in ${input.cacheDir}`;
  } else {
    const reason = `${asked}: dataset order, no earlier times (the durations cache is off and no --durations)`;
    return { ordered: todo, choice: { order: 'dataset', reason }, notes };
  }
  const order = orderLongestFirst(todo, (instance) => instance.instance_id, times);
  if (order.known === 0) {
    const reason = `${asked}: dataset order, none of the ${todo.length} instance(s) has a time in ${source} (a first run; its times are recorded for the next)`;
    return { ordered: todo, choice: { order: 'dataset', reason }, notes };
  }
  const unknown =
    order.unknown === 0 ? '' : `; the ${order.unknown} without one start first, in the dataset's order`;
  const reason = `${asked}: longest first by ${source}, ${order.known} of ${todo.length} instance(s) have a time${unknown}`;
  return { ordered: order.ordered, choice: { order: 'longest-first', reason }, notes };
}
