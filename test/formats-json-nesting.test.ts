/**
 * parseJson's nesting limit: text nesting one level deeper than the limit is refused however short it
 * can be (2 (max + 1) characters), the limit itself is fine, and long flat text is never refused.
 */
import { describe, expect, it } from 'vitest';
import { parseJson } from '../src/formats/json-value.js';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);

describe('parseJson nesting limit', () => {
  it('should refuse the shortest text nesting one level too deep, objects and arrays alike', () => {
    for (const max of [1, 3, 10]) {
      expect(parseJson(nested(max + 1), max)).toEqual({ ok: false, message: `JSON nests deeper than ${max} levels` });
      expect(parseJson(nested(max), max).ok).toBe(true);
      const objects = '{"a":'.repeat(max + 1) + '1' + '}'.repeat(max + 1);
      expect(parseJson(objects, max).ok).toBe(false);
    }
  });

  it('should accept long text that does not nest too deep', () => {
    const flat = JSON.stringify({ list: Array.from({ length: 2000 }, (_, i) => [i]) });
    expect(flat.length).toBeGreaterThan(2 * 1001);
    expect(parseJson(flat).ok).toBe(true);
    expect(parseJson(nested(1001)).ok).toBe(false);
    expect(parseJson(nested(1000)).ok).toBe(true);
  });
});
