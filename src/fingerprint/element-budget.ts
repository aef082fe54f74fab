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
