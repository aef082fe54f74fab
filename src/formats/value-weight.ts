/**
 * What a parsed JSON value weighs while a reader holds it: its strings' characters, and VALUE_WEIGHT for
 * each value (a tiny value parsed takes many times its text: json-value-count.ts). An estimate of the
 * memory held, in the unit of the text's bytes, taken in one walk over the value (no recursion: a value
 * nests at most MAX_NESTING deep, but the walk does not rely on it).
 */

/** What one value weighs besides its strings' characters, in bytes. */
export const VALUE_WEIGHT = 32;

/** The weight of `value` (see the header). */
export function valueWeight(value: unknown): number {
  let weight = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    weight += VALUE_WEIGHT;
    if (typeof v === 'string') weight += v.length;
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        weight += k.length;
        stack.push(x);
      }
    }
  }
  return weight;
}
