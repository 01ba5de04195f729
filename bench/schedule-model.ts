/**
 * schedule-model: where `--schedule auto` should put the instances that have no earlier time, and
 * how many need one. A list-scheduling model, no harness and no host: `--instances` jobs on
 * `--slots` slots, each slot taking the next job as it frees up; quota busy = Σ job time /
 * (slots × makespan). Job times are uniform in `--test-seconds` (the scale simulation's 10–30 s),
 * the earlier run's times are this run's plus uniform noise of ±`--noise-seconds` (0.7 s ≈ the
 * 0.4 s sd of `script_ms` in the scale simulation).
 *
 * Per share of known times it prints quota busy for the dataset's order and for longest first with
 * the unknown jobs first, last, or sorted in at the known times' median; the known ones drawn at
 * random, or being the longest, or the shortest jobs (an earlier run cut short, a subset run).
 * Mean of `--trials` seeded draws.
 *
 * Run: `pnpm tsx bench/schedule-model.ts [--instances 500] [--slots 100] [--test-seconds 10:30]
 *   [--noise-seconds 0.7] [--trials 200]`
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '500' },
    slots: { type: 'string', default: '100' },
    'test-seconds': { type: 'string', default: '10:30' },
    'noise-seconds': { type: 'string', default: '0.7' },
    trials: { type: 'string', default: '200' },
  },
});
const n = Number(values.instances);
const slots = Number(values.slots);
const [low, high] = (values['test-seconds'] ?? '').split(':').map(Number) as [number, number];
const noise = Number(values['noise-seconds']);
const trials = Number(values.trials);

/** A seeded uniform [0, 1) stream (a 32-bit LCG: enough for a model, and the same on every machine). */
function stream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Makespan of `times` started in this order on `slots` slots, each taking the next as it frees up. */
function makespan(times: readonly number[]): number {
  const freeAt = new Array<number>(slots).fill(0);
  for (const time of times) {
    let slot = 0;
    for (let k = 1; k < slots; k++) if (freeAt[k]! < freeAt[slot]!) slot = k;
    freeAt[slot]! += time;
  }
  return Math.max(...freeAt);
}

type Placement = 'first' | 'last' | 'median';
const placements: Placement[] = ['first', 'last', 'median'];

/** Job indices: unknown ones placed as `placement` says, the known ones longest first by `earlier`. */
function order(known: readonly boolean[], earlier: readonly number[], placement: Placement): number[] {
  const ids = earlier.map((_, i) => i);
  const byEarlier = (a: number, b: number) => earlier[b]! - earlier[a]!;
  const knownIds = ids.filter((i) => known[i]).sort(byEarlier);
  const unknownIds = ids.filter((i) => !known[i]);
  if (placement === 'first') return [...unknownIds, ...knownIds];
  if (placement === 'last') return [...knownIds, ...unknownIds];
  const median = knownIds.length === 0 ? 0 : earlier[knownIds[Math.floor(knownIds.length / 2)]!]!;
  const key = (i: number) => (known[i] ? earlier[i]! : median);
  return ids.sort((a, b) => key(b) - key(a) || Number(known[a]) - Number(known[b]));
}

process.stdout.write(
  `schedule-model: ${n} jobs on ${slots} slots, ${low}–${high} s, earlier times ±${noise} s, ${trials} trials; quota busy (Σ time / slots × makespan)\n\n| known share | which are known | dataset order | unknown first | unknown last | unknown at the median |\n|---:|---|---:|---:|---:|---:|\n`,
);
for (const which of ['random', 'longest', 'shortest'] as const) {
  for (const share of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) {
    if (which !== 'random' && (share === 0 || share === 1)) continue;
    let dataset = 0;
    const sums = { first: 0, last: 0, median: 0 };
    for (let trial = 0; trial < trials; trial++) {
      const random = stream(trial * 7919 + 1);
      const times = Array.from({ length: n }, () => low + (high - low) * random());
      const earlier = times.map((time) => time + noise * (2 * random() - 1));
      const rank = times.map((_, i) => i).sort((a, b) => times[b]! - times[a]!);
      const count = Math.round(share * n);
      const known =
        which === 'random'
          ? times.map(() => random() < share)
          : (() => {
              const chosen = new Set(which === 'longest' ? rank.slice(0, count) : rank.slice(n - count));
              return times.map((_, i) => chosen.has(i));
            })();
      const total = times.reduce((sum, time) => sum + time, 0);
      dataset += total / (slots * makespan(times));
      for (const placement of placements)
        sums[placement] += total / (slots * makespan(order(known, earlier, placement).map((i) => times[i]!)));
    }
    const pct = (sum: number) => `${((100 * sum) / trials).toFixed(1)}%`;
    process.stdout.write(
      `| ${share} | ${which} | ${pct(dataset)} | ${pct(sums.first)} | ${pct(sums.last)} | ${pct(sums.median)} |\n`,
    );
  }
}
