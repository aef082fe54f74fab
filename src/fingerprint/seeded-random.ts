/**
 * A seeded generator of numbers in [0, 1): mulberry32 (one 32-bit word of state, period 2^32), the same
 * numbers on every machine for a seed. What calibrate's folds and restarts, the report's sampled timelines
 * and the tests' random inputs draw from, so a run is repeated exactly by its seed.
 */

/** A generator of numbers in [0, 1) from `seed` (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
