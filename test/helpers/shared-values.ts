/**
 * Values that reuse one object many times, and a leaf that counts how often it is read: what the repeat
 * budget's tests (fingerprint-shared-references, similar-args-summary-repeat-spent) build.
 */

/** How each level holds the one below twice. */
export type Shape = 'object' | 'array' | 'map';

/** `levels` levels each referencing the one below twice, over `leaf`. */
export function doubling(levels: number, shape: Shape, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = shape === 'array' ? [v, v] : shape === 'map' ? new Map([['a', v], ['b', v]]) : { a: v, b: v };
  return v;
}

/** A leaf object behind a Proxy that counts the reads of its properties. */
export function countedLeaf(): { leaf: object; reads: () => number } {
  let reads = 0;
  const leaf = new Proxy({ x: 1 }, {
    get(t, k, r) {
      reads++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
  return { leaf, reads: () => reads };
}
