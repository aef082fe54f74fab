/**
 * Values brought back from a session snapshot keep the fingerprint their originals had: similar args
 * compares values that are not strings, plain objects or arrays by fingerprint, and a snapshot cannot
 * hold a Map, a BigInt or a class instance as it was. A restored object or array carries the original's
 * fingerprint; any other value comes back as a {@link RestoredValue} that is nothing but its fingerprint.
 * `hashValue` answers with the carried fingerprint.
 *
 * The fingerprints are kept beside the values (a WeakMap), not on them: looking one up runs no code of
 * the value's, so a caller's Proxy can neither throw there nor pass itself off as a restored value.
 */

/** The (low, high) words of the original value's fingerprint, by restored value. */
const carried = new WeakMap<object, readonly [number, number]>();

/** A value that came back from a snapshot as its fingerprint only (a Map, a BigInt, a function, ...). */
export class RestoredValue {
  constructor(lo: number, hi: number) {
    carried.set(this, [lo, hi]);
  }
}

/** Gives a restored object or array its original's fingerprint. */
export function carryFingerprint(target: object, lo: number, hi: number): void {
  carried.set(target, [lo, hi]);
}

/** The carried fingerprint of a restored value, or undefined. */
export function carriedFingerprint(v: object): readonly [number, number] | undefined {
  return carried.get(v);
}
