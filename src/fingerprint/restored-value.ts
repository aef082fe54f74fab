/**
 * Values brought back from a session snapshot keep the fingerprint their originals had: similar args
 * compares values that are not strings, plain objects or arrays by fingerprint, and a snapshot cannot
 * hold a Map, a BigInt or a class instance as it was. A restored object or array carries the original's
 * fingerprint under {@link RESTORED_FINGERPRINT}; any other value comes back as a {@link RestoredValue}
 * that is nothing but its fingerprint. `hashValue` answers with the carried fingerprint.
 */

/** The (low, high) words of the original value's fingerprint, on restored objects and arrays. */
export const RESTORED_FINGERPRINT: unique symbol = Symbol('loopwatch.restoredFingerprint');

/** A value that came back from a snapshot as its fingerprint only (a Map, a BigInt, a function, ...). */
export class RestoredValue {
  /** The fingerprint's (low, high) words. */
  readonly [RESTORED_FINGERPRINT]: readonly [number, number];

  constructor(lo: number, hi: number) {
    this[RESTORED_FINGERPRINT] = [lo, hi];
  }
}

/** Gives a restored object or array its original's fingerprint (a hidden, non-enumerable property). */
export function carryFingerprint(target: object, lo: number, hi: number): void {
  Object.defineProperty(target, RESTORED_FINGERPRINT, { value: [lo, hi] });
}

/** The carried fingerprint of a restored value, or undefined. */
export function carriedFingerprint(v: object): readonly [number, number] | undefined {
  return (v as { [RESTORED_FINGERPRINT]?: readonly [number, number] })[RESTORED_FINGERPRINT];
}
