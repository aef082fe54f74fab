/**
 * What a parsed JSON value weighs while a reader holds it: its strings' characters (keys' too), and a fixed
 * weight for each value and each key (a tiny value parsed takes many times its text: json-value-count.ts).
 * An estimate of the memory held, in the unit of the text's bytes, taken in one walk over the value (no
 * recursion: a value nests at most MAX_NESTING deep, but the walk does not rely on it). The Codex reader
 * bounds a fork's held copy by it (codex-fork.ts), `scan` its open batch (cli/scan/event-size.ts).
 */

/** What one value weighs besides its strings' characters, in bytes (the readers' default). */
export const VALUE_WEIGHT = 32;

/** What a value and a key weigh besides their characters. */
export interface NodeWeights {
  readonly value: number;
  readonly key: number;
}

/** The readers' weights: {@link VALUE_WEIGHT} a value, a key its characters only. */
const HELD: NodeWeights = { value: VALUE_WEIGHT, key: 0 };

/**
 * The weight of `value` (see the header) with `weights`; the walk of a container stops once past `stopAt`
 * (the caller only needs to know it is past), a scalar is weighed whole.
 */
export function valueWeight(value: unknown, weights: NodeWeights = HELD, stopAt: number = Infinity): number {
  if (value === null || typeof value !== 'object') return weights.value + (typeof value === 'string' ? value.length : 0);
  let weight = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && weight < stopAt) {
    const v = stack.pop();
    weight += weights.value;
    if (typeof v === 'string') weight += v.length;
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i]);
    else if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v)) {
        weight += weights.key + k.length;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return weight;
}
