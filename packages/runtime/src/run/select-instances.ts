/**
 * Which instances a `sandkit run` runs, in which order, as SWE-agent's and mini-swe-agent's batch
 * runners choose them: `shuffle` (sorted by id, then a seeded Fisher–Yates shuffle) first, then
 * `instanceIds`, `filter` (a regular expression matched against `instance_id`, anchored at its
 * start as Python's `re.match`) and `slice` (`START:STOP`, Python's slice: 0-based, STOP
 * exclusive, either side may be empty or negative).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';

/** How to choose instances. */
export interface InstanceSelection {
  instanceIds: readonly string[] | null;
  /** Regular expression source, matched from the start of `instance_id`. */
  filter: string | null;
  /** `START:STOP`. */
  slice: string | null;
  shuffle: boolean;
  seed: number;
}

/**
 * The chosen instances in run order.
 * @throws SandkitError `invalid_option` for an id not in the dataset, a bad regular expression or slice.
 */
export function selectInstances(
  instances: readonly SweBenchInstance[],
  selection: InstanceSelection,
): SweBenchInstance[] {
  let chosen = [...instances];
  if (selection.shuffle) {
    chosen.sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0));
    shuffleInPlace(chosen, selection.seed);
  }
  if (selection.instanceIds !== null) {
    const known = new Set(instances.map((i) => i.instance_id));
    const unknown = selection.instanceIds.filter((id) => !known.has(id));
    if (unknown.length > 0) invalid(`--instance-ids not in the dataset: ${unknown.join(', ')}`);
    const wanted = new Set(selection.instanceIds);
    chosen = chosen.filter((i) => wanted.has(i.instance_id));
  }
  if (selection.filter !== null) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${selection.filter})`);
    } catch (cause) {
      invalid(`--filter ${selection.filter} is not a regular expression: ${(cause as Error).message}`);
    }
    chosen = chosen.filter((i) => pattern.test(i.instance_id));
  }
  if (selection.slice !== null) {
    const [start, stop] = parseSlice(selection.slice);
    chosen = chosen.slice(start, stop);
  }
  return chosen;
}

/**
 * `START:STOP` as the arguments of `Array.prototype.slice` (which has Python's meaning for
 * negative and out-of-range ends).
 * @throws SandkitError `invalid_option` when it is not two optional integers around one colon.
 */
export function parseSlice(text: string): [number | undefined, number | undefined] {
  const match = /^\s*(-?\d+)?\s*:\s*(-?\d+)?\s*$/.exec(text);
  if (match === null)
    invalid(
      `--slice must be START:STOP (0-based, STOP exclusive, either may be empty), e.g. 0:10 or :5, got ${text}`,
    );
  return [
    match[1] === undefined ? undefined : Number(match[1]),
    match[2] === undefined ? undefined : Number(match[2]),
  ];
}

/** Fisher–Yates with mulberry32 seeded by `seed`: the same seed always gives the same order. */
function shuffleInPlace<T>(items: T[], seed: number): void {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
