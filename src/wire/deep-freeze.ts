/**
 * Freezing a value that came across a boundary (a worker's message, a snapshot's JSON) all the way down,
 * as the verdicts and decisions a session gives in place are.
 */

/** `v` with every object in it frozen (already frozen objects are taken as frozen throughout). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}
