/**
 * The count that bounds a JSON text read whole (json-value-count.ts): `[`, `{` and `,` outside strings,
 * an upper bound on its values, so that parseJson refuses a text of too many values before parsing it,
 * and takes any text of at most MAX_JSON_VALUES characters without counting.
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_VALUES, countJsonValues, hasMoreValuesThan } from '../src/formats/json-value-count.js';
import { parseJson } from '../src/formats/json-value.js';

describe('countJsonValues', () => {
  it.each([
    ['1', 0],
    ['[]', 1],
    ['{"a":[1,2,{"b":[]}]}', 6],
    ['"x,[{"', 0],
    ['["a\\",[{", 1]', 2],
    ['["\\\\", 1]', 2],
    ['{"k":"v,v","l":[{}]}', 4],
  ])('should count %s as %i', (text, n) => {
    expect(countJsonValues(text)).toBe(n);
  });

  it('should stop past the bound', () => {
    expect(countJsonValues('[' + '0,'.repeat(100) + '0]', 10)).toBe(11);
  });

  it('should bound at least every value: a count never under the values less one', () => {
    for (const v of [[], {}, [1, [2, [3]], { a: { b: [] } }], Array(50).fill({ x: ['y', 'z,'] })]) {
      let values = 0;
      const walk = (x: unknown): void => {
        values++;
        if (Array.isArray(x)) x.forEach(walk);
        else if (typeof x === 'object' && x !== null) Object.values(x).forEach(walk);
      };
      walk(v);
      expect(countJsonValues(JSON.stringify(v))).toBeGreaterThanOrEqual(values - 1);
    }
  });
});

describe('parseJson and the bound on values', () => {
  it('should refuse a text over MAX_JSON_VALUES values, before parsing it', () => {
    const over = `[${'0,'.repeat(MAX_JSON_VALUES)}0]`;
    expect(hasMoreValuesThan(over)).toBe(true);
    expect(parseJson(over)).toEqual({ ok: false, message: `JSON of more than ${MAX_JSON_VALUES} values (read whole, it would take many times its size in memory)` });
  });

  it('should read a text at the bound, and a long text of few values', () => {
    const at = `[${'0,'.repeat(MAX_JSON_VALUES - 2)}0]`;
    expect(countJsonValues(at)).toBe(MAX_JSON_VALUES - 1);
    expect(parseJson(at).ok).toBe(true);
    const long = JSON.stringify({ text: 'a,b[c{'.repeat(MAX_JSON_VALUES) });
    expect(hasMoreValuesThan(long)).toBe(false);
    expect(parseJson(long).ok).toBe(true);
  });
});
