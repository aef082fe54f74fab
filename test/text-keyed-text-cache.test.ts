/**
 * The cache of readings by module key (keyed-text-cache.ts, direct-mapped): an entry is found only under its
 * own key (never under another key of the same slot), a later text of a slot replaces the one there, the
 * texts kept never exceed the entries or the characters given (past the characters it starts again empty;
 * every text shorter than that bound),
 * and its counts follow what it holds. On random streams of keys and texts it gives what a plain map of the
 * newest text per key would, or nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedTextCache } from '../src/text/keyed-text-cache.js';

describe('keyed text cache', () => {
  it('should find an entry under its own key only, and let a later text of its slot replace it', () => {
    const c = new KeyedTextCache<number>(1000, 8);
    c.set(3, 'three', 3);
    expect(c.get(3)?.text).toBe('three');
    // 11 and 3 share a slot of 8; 2 ** 40 + 3 too (the slot is the key's low bits)
    expect(c.get(11)).toBeUndefined();
    expect(c.get(2 ** 40 + 3)).toBeUndefined();
    c.set(2 ** 40 + 3, 'big', 7);
    expect(c.get(3)).toBeUndefined();
    expect(c.get(2 ** 40 + 3)?.value).toBe(7);
    expect(c.size()).toEqual({ entries: 1, chars: 3 });
    // a reader may complete an entry's value in place
    const e = c.get(2 ** 40 + 3);
    if (e !== undefined) e.value = 9;
    expect(c.get(2 ** 40 + 3)?.value).toBe(9);
    // key 0 is a key like any other
    expect(c.get(0)).toBeUndefined();
    c.set(0, '', 1);
    expect(c.get(0)?.value).toBe(1);
  });

  it('should keep at most its entries and characters, starting again empty past the characters', () => {
    const c = new KeyedTextCache<number>(20, 4);
    c.set(0, 'aaaaaaaaaa', 0);
    c.set(1, 'bbbbbbbbbb', 1);
    expect(c.size()).toEqual({ entries: 2, chars: 20 });
    c.set(2, 'c', 2);
    expect(c.size()).toEqual({ entries: 1, chars: 1 });
    expect(c.get(0)).toBeUndefined();
    expect(c.get(2)?.text).toBe('c');
  });

  it('should give what the newest text of each key says, or nothing, on random streams', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 12, max: 200 }),
        fc.array(fc.tuple(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(2 ** 52, 2 ** 33 + 5, 2 ** 53 - 1)), fc.string({ maxLength: 12 })), { maxLength: 200 }),
        (entries, chars, stream) => {
          const c = new KeyedTextCache<string>(chars, entries);
          const newest = new Map<number, string>();
          for (const [key, text] of stream) {
            const got = c.get(key);
            if (got !== undefined) expect(got.text).toBe(newest.get(key));
            if (got !== undefined) expect(got.value).toBe(`${key}:${got.text}`);
            c.set(key, text, `${key}:${text}`);
            newest.set(key, text);
            const size = c.size();
            expect(size.entries).toBeLessThanOrEqual(entries);
            expect(size.chars).toBeLessThanOrEqual(chars);
          }
        },
      ),
    );
  });
});
