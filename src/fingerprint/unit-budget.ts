/**
 * The unit budget of a canonical walk: how many string units (and bytes of typed arrays and ArrayBuffers)
 * one walk of a value hashes at most. The element and repeat budgets (element-budget.ts) bound how many
 * nodes a walk visits, not what each costs: `Array(262144).fill(s)` with `s` one string of 1 MB is a few MB
 * of memory that a walk hashing every element whole reads 256 GB of. A JavaScript string has no identity a
 * walk could note (a slice or a concatenation of `s` is another string with the same or nearly the same
 * units), so the bound is on the units hashed, whatever they share:
 *
 * ```
 *  each walk starts with MAX_WALK_UNITS;
 *  a string (an object's key, a Map's key, a BigInt's digits, the bytes of a typed array) of n units
 *  met inside a container with r left:
 *      n <= r: hashed as before, r -= n
 *      n >  r: a value is one "too many" marker holding n (many(n)); a key leaves its member out;
 *              r is kept, so shorter strings after it are still hashed
 *  a value that is itself one string (or one BigInt, one typed array) is hashed whole: its cost is its own
 * ```
 *
 * The same rule, counted in the same order, is in the reference walk (`canonical-hash.ts`) and the host's
 * encoding for the module (`wasm/encode-value.ts`); JSON text no longer than MAX_WALK_UNITS bytes holds
 * fewer units than that, so the module's JSON hasher (`assembly/json.ts`) needs no count, and longer text
 * is walked by the host (`wasm/record-writer.ts`). Similar args' summary counts the units it reads alike
 * (`text/args-summary.ts`). 4 Mi units is over twice the longest line of the development set
 * (1.9 MB, 2026-12), so the values of real calls hash as before.
 */

/** String units (or bytes) one canonical walk of a value hashes at most inside its containers (2^22). */
export const MAX_WALK_UNITS = 4_194_304;
