/**
 * Similar args' SummaryRing keeps its summaries in an arena about a quarter larger than they are, written
 * round as a ring: summaries of one size never move once it has room, summaries of any sizes read back as
 * they were put (against a plain map of the newest `slots` puts), and an arena grown for large summaries
 * shrinks again when they become small. It was twice its summaries before (~17 KB of the RSS bench's
 * ~35 KB per session with every detector).
 */
import { describe, expect, it } from 'vitest';
import { SummaryRing, roomFor } from '../src/state/summary-ring.js';

/** `n` bytes made from `seed`. */
const bytesOf = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 0xff);

/** Whether `a` and `b` hold the same bytes (one expect per summary would take minutes). */
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** The summary held for call `i`, copied out. */
const held = (ring: SummaryRing, i: number, n: number): Uint8Array => ring.bytes.slice(ring.at(i), ring.at(i) + n);

describe('summary ring arena', () => {
  it('should hold 11 summaries of 768 B in at most 1.3x their bytes, never moving them after the first round', () => {
    const ring = new SummaryRing(11);
    let arena: Uint8Array | null = null;
    for (let i = 0; i < 1000; i++) {
      ring.put(i, bytesOf(768, i));
      if (i === 40) arena = ring.bytes;
      if (i > 40) expect(ring.bytes).toBe(arena);
    }
    expect(ring.bytes.length).toBeLessThanOrEqual(Math.ceil(1.3 * 11 * 768));
    for (let i = 989; i < 1000; i++) expect(held(ring, i, 768)).toEqual(bytesOf(768, i));
  });

  it('should read back every summary held as it was put, whatever the sizes, drops and replacements', () => {
    let x = 12345;
    const rand = (m: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % m;
    };
    for (const slots of [1, 2, 5, 11, 31]) {
      const ring = new SummaryRing(slots);
      const model = new Map<number, number>(); // index -> size
      for (let i = 0; i < 1000; i++) {
        const n = 1 + (rand(4) === 0 ? rand(4096) : rand(300));
        ring.put(i, bytesOf(n, i));
        model.set(i, n);
        model.delete(i - slots);
        if (rand(10) === 0) {
          const d = i - rand(slots);
          ring.drop(d);
          model.delete(d);
        }
        for (const [k, size] of model) if (!same(held(ring, k, size), bytesOf(size, k))) expect.fail(`slots ${slots}: call ${k}'s summary changed after put ${i}`);
        let live = 0;
        for (const size of model.values()) live += size;
        // no more than a compaction's arena, kept until it is twice too large
        if (ring.bytes.length > 2 * roomFor(slots * 4096, 4096) || ring.bytes.length < live) expect.fail(`slots ${slots}: an arena of ${ring.bytes.length} B for ${live} B`);
      }
    }
  });

  it('should make the arena once while the window fills with summaries of one size', () => {
    for (const size of [20, 235, 768, 4000]) {
      const ring = new SummaryRing(11);
      const arenas = new Set<Uint8Array>();
      for (let i = 0; i < 40; i++) {
        ring.put(i, bytesOf(size, i));
        arenas.add(ring.bytes);
      }
      expect(arenas.size, `summaries of ${size} B`).toBe(1);
      expect(ring.bytes.length).toBeLessThanOrEqual(Math.max(256, Math.ceil(1.3 * 11 * size)));
    }
  });

  it('should give back an arena grown for large summaries once they are small', () => {
    const ring = new SummaryRing(11);
    for (let i = 0; i < 50; i++) ring.put(i, bytesOf(4000, i));
    const large = ring.bytes.length;
    for (let i = 50; i < 1000; i++) ring.put(i, bytesOf(100, i)); // a round of the large arena, then a compaction
    expect(large).toBeGreaterThan(40_000);
    expect(ring.bytes.length).toBeLessThanOrEqual(roomFor(10 * 100, 100) * 2);
    for (let i = 989; i < 1000; i++) expect(held(ring, i, 100)).toEqual(bytesOf(100, i));
  });
});
