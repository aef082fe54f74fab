/**
 * K folds by task group: every run of a group (`task_group` in the labels, else the run's own session)
 * falls in one fold, so a fit is never judged on a task it was fitted on. Groups are shuffled by the seed,
 * then each goes to the fold holding the fewest runs so far (the lowest-numbered on a tie): folds of about
 * equal size, the same for a seed.
 */
import { seededRandom } from '../fingerprint/seeded-random.js';
import { shuffled } from './search.js';

/** The fold of each run (by position in `groups`), 0 to k - 1. */
export function assignFolds(groups: readonly string[], k: number, seed: number): number[] {
  const size = new Map<string, number>();
  for (const g of groups) size.set(g, (size.get(g) ?? 0) + 1);
  const names = shuffled([...size.keys()].sort(), seededRandom(seed ^ 0x5f0d));
  const load = new Array<number>(k).fill(0);
  const foldOf = new Map<string, number>();
  for (const g of names) {
    let f = 0;
    for (let i = 1; i < k; i++) if ((load[i] as number) < (load[f] as number)) f = i;
    foldOf.set(g, f);
    load[f] = (load[f] as number) + (size.get(g) as number);
  }
  return groups.map((g) => foldOf.get(g) as number);
}
