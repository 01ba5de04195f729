/**
 * Seeded pseudo-random numbers for simulations that must repeat exactly: mulberry32 (a 32-bit
 * generator with a full 2^32 period), and the draws the simulated vendor needs.
 * @module
 */

/** A generator of numbers in [0, 1). */
export type Random = () => number;

/**
 * A mulberry32 generator from `seed` (any integer; only its low 32 bits count). Two generators
 * with the same seed return the same sequence.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A generator for stream `index` of `seed`: the same (seed, index) always gives the same stream. */
export function seededStream(seed: number, index: number): Random {
  return seededRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
}

/** Uniform in [min, max). */
export function uniformBetween(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}

/**
 * Log-normal with the given median and shape `sigma` (the standard deviation of its logarithm),
 * clamped to [min, max]: most draws near the median, a long tail up to `max`.
 */
export function logNormalBetween(
  random: Random,
  median: number,
  sigma: number,
  min: number,
  max: number,
): number {
  // Box–Muller; 1 − u keeps the logarithm's argument in (0, 1]
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(max, Math.max(min, median * Math.exp(sigma * normal)));
}
