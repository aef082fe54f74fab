/**
 * The element budget of a canonical walk: how many array elements one walk of a value visits at most,
 * whatever the arrays' `length` says. An array costs its `length` to walk (a hole is read as `null`), so
 * without it a sparse array of length 2^32-1, a few bytes of memory, took minutes and gigabytes to hash.
 *
 * The rule, the same in the reference walk (`canonical-hash.ts`), the host's encoding for WebAssembly
 * (`wasm/encode-value.ts`, hashed by `assembly/tree.ts`) and the JSON hasher (`assembly/json.ts`, which
 * leaves a document over the budget to the host):
 *
 * ```
 *  each walk starts with MAX_WALK_ELEMENTS;
 *  an array of length n, met with r left:  k = min(n, r) elements are reserved (r -= k) and walked in order;
 *  when k < n the rest is one "too many" marker holding n:  array(e1..ek, many(n)), counted k + 1
 * ```
 *
 * JSON text cannot reach the budget without holding that many values, so arrays of ordinary tool calls
 * hash as before; the marker, like "too deep", means two arrays that differ only past it hash alike.
 */

/** Array elements one canonical walk of a value visits at most (2^18). */
export const MAX_WALK_ELEMENTS = 262_144;

/** How many of an array's `length` elements are walked with `left` of the budget left. */
export function elementsWalked(length: number, left: number): number {
  return length <= left ? length : left;
}

/**
 * The repeat budget of a canonical walk: a value can reuse one object many times (`v = [v, v]` forty times
 * over, `{a: v, b: v}`), a few hundred bytes that a walk meeting every reference visits 2^40 times. The
 * element budget above bounds the arrays' elements, not objects' members (member-budget.ts caps those one object at a time), Maps or Sets. So one walk counts
 * its work in nodes (an object entered, an array element, an object's own key, a Map entry, a Set member)
 * and, once it has counted more than {@link TRACK_SHARED_AFTER} of them, notes each object it has walked
 * whole with the nodes that walk took. Meeting a noted object again (not an ancestor: that is a cycle) is
 * a repeat:
 *
 * ```
 *  a repeat whose noted cost is over what is left of MAX_REPEAT_NODES, or met when nothing is left:
 *      the value is one "too many" marker holding 0   (many(0); an array's rest marker holds its length > 0)
 *  else it is walked again, and every node counted inside a repeat is taken from MAX_REPEAT_NODES
 * ```
 *
 * A tree never repeats an object, so its fingerprint does not move whatever its size, nor does a value of
 * fewer than TRACK_SHARED_AFTER nodes, nor one sharing a small object a few times. The same rule, counted
 * alike, is in the reference walk (`canonical-hash.ts`) and the host's encoding (`wasm/encode-value.ts`).
 */
export const MAX_REPEAT_NODES = 65_536;

/** Nodes a walk counts before it notes the objects it has walked (a smaller value pays nothing). */
export const TRACK_SHARED_AFTER = 4096;

/** The objects one walk has walked whole, and what is left of its repeat budget (see above). */
export class RepeatBudget {
  /** Nodes counted so far. */
  nodes = 0;
  /** Nodes repeats may still take. */
  left = MAX_REPEAT_NODES;
  /** How many repeats the walk is inside. */
  inside = 0;
  /** Whether the walk has put the marker in a repeat's place (its value was past the budget). */
  cut = false;
  private noted: Map<object, number> | null = null;

  /** Starts a new walk. */
  reset(): void {
    this.nodes = 0;
    this.left = MAX_REPEAT_NODES;
    this.inside = 0;
    this.cut = false;
    if (this.noted !== null) this.noted = null;
  }

  /** Counts one node, taken from the budget inside a repeat. */
  count(): void {
    this.nodes++;
    if (this.inside > 0) this.left--;
  }

  /**
   * Entering object `v` (neither a cycle nor past the depth cap): 0 for a first walk, 1 for a repeat that
   * may be walked (then {@link leave} with 1), -1 for a repeat to replace by the marker.
   */
  enter(v: object): number {
    if (this.inside > 0 && this.left <= 0) return this.cutHere();
    const noted = this.noted;
    if (noted === null) return 0;
    const cost = noted.get(v);
    if (cost === undefined) return 0;
    if (cost > this.left) return this.cutHere();
    this.inside++;
    return 1;
  }

  private cutHere(): number {
    this.cut = true;
    return -1;
  }

  /** Leaving object `v`, entered with `repeat` from {@link enter} when `nodes` was `from`. */
  leave(v: object, repeat: number, from: number): void {
    if (repeat === 1) this.inside--;
    const n = this.nodes;
    if (n <= TRACK_SHARED_AFTER) return;
    const noted = (this.noted ??= new Map());
    const cost = n - from;
    const had = noted.get(v);
    if (had === undefined || had < cost) noted.set(v, cost);
  }
}
