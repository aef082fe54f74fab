/** Counts by label value, kept by hosts for their metrics (cheap: a map lookup per count). */

/** Adds one to `key`'s count. */
export function countInto(tally: Map<string, number>, key: string): void {
  tally.set(key, (tally.get(key) ?? 0) + 1);
}
