/**
 * The work of hashing many parts of one value, each part its own walk (canonical-hash.ts `hashValue`):
 * similar args' summary's OPAQUE parts (text/args-summary.ts) and the masked args copy's fingerprinted parts
 * (detectors/snapshot-args.ts). Each walk is bounded alone; summed over the parts they are bounded too, in
 * nodes (OPAQUE_WORK_MAX), in string units (MAX_WALK_UNITS: unit-budget.ts, the parts' walks and the
 * strings read outside them), and by a part that met an object again past the repeat budget
 * (element-budget.ts): such a value costs a whole budget per part. Once spent, the caller gives up the
 * whole value (its one fingerprint).
 */
import { lastWalkCut, lastWalkNodes, lastWalkUnits } from './canonical-hash.js';
import { MAX_WALK_UNITS } from './unit-budget.js';

/**
 * Nodes (canonical-hash.ts `lastWalkNodes`) the parts of one value may cost to hash. Each part is its own
 * walk, so without it a value reusing one large object in hundreds of parts (or parts left OPAQUE level after
 * level as a summary fills) cost hundreds of walks of it.
 */
export const OPAQUE_WORK_MAX = 1 << 18;

/** The nodes and units the parts of one value have cost so far. */
export class PartsWork {
  private nodes = 0;
  private units = 0;

  /** Starts counting another value's parts. */
  reset(): void {
    this.nodes = 0;
    this.units = 0;
  }

  /** Whether the parts counted have spent the budget: no part more is to be hashed. */
  spent(): boolean {
    return this.nodes > OPAQUE_WORK_MAX || this.units > MAX_WALK_UNITS;
  }

  /** Counts the walk of a part that just ended; a part cut at the repeat budget spends the rest. */
  walked(): void {
    this.nodes += lastWalkNodes();
    this.units += lastWalkUnits();
    if (lastWalkCut()) this.nodes = OPAQUE_WORK_MAX + 1;
  }

  /** Counts `n` units read outside a walk (a long string); whether the budget still holds. */
  read(n: number): boolean {
    return (this.units += n) <= MAX_WALK_UNITS;
  }
}
