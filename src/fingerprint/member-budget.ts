/**
 * The member cap of a canonical walk: how many of one object's own keys a walk hashes. The element budget
 * (element-budget.ts) bounds arrays, the unit budget (unit-budget.ts) strings and keys; an object of many
 * short keys was bounded by neither: 2^20 keys of 7 characters cost 5 s in `LoopDetector.check` and 11 s in
 * `LiveGuard.record`, and 4x the keys cost 4.4-5.9x (every walk's member loop, and similar args' summary
 * hashing the args again). The rule, the same in the reference walk (`canonical-hash.ts`), the host's encoding
 * for the module (`wasm/encode-value.ts`, hashed by `assembly/tree.ts`); the module's JSON hasher
 * (`assembly/json.ts`) gives any object of more than 256 keys to the host:
 *
 * ```
 *  an object's own enumerable keys (those of Object.keys, in its order) are met one by one;
 *  the first MAX_WALK_MEMBERS are walked as before (ignored fields and omitted members among them);
 *  meeting one more, the object is one "too many members" marker holding n, its number of own keys:
 *      wide(n) = close(fold(OBJECT, many(n)), 0)
 *  what the members walked before it took of the walk's budgets (elements, units, repeats) stays taken
 * ```
 *
 * So an object past the cap costs its first MAX_WALK_MEMBERS members and a count of the rest, and two
 * objects past it with as many keys hash alike, as arrays differing past the element budget do. What is
 * left is V8's own listing of a large object's keys (`for...in`, `Object.keys`), n log n in the keys and
 * paid whether a walk stops early or not: 2^20 keys, ~0.45 s a listing here (2026-12). Real calls' objects
 * are far below the cap (a hook payload past 16,384 values is kept as its JSON text: hook-payload.ts), so
 * their fingerprints do not move.
 */

/** Own keys of one object a canonical walk hashes at most (2^14); past it, the object is one marker. */
export const MAX_WALK_MEMBERS = 16_384;
