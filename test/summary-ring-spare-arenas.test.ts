/**
 * Rings made for the thread's sessions (`shared`) take their arenas from the arenas other rings let go
 * (src/state/spare-arenas.ts) and leave theirs there: many such rings side by side, growing, shrinking,
 * dropping and resetting, each read back against a plain model of its newest puts, so no ring ever reads a
 * byte another ring wrote; a spare taken is at least the size asked and at most 1.5 times it; the spares
 * stay within their bound.
 */
import { describe, expect, it } from 'vitest';
import { SPARE_BYTES, SPARE_SLACK, giveArena, spareBytes, takeArena } from '../src/state/spare-arenas.js';
import { SummaryRing } from '../src/state/summary-ring.js';

/** `n` bytes made from `seed`. */
const bytesOf = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 0xff);

/** Whether call `k`'s summary (`size` bytes) reads back from the ring. */
const holds = (ring: SummaryRing, k: number, size: number): boolean => {
  const b = ring.bytes;
  const at = ring.at(k);
  for (let i = 0; i < size; i++) if (b[at + i] !== ((k * 31 + i * 7) & 0xff)) return false;
  return true;
};

describe('summary rings over spare arenas', () => {
  it('should read back every ring\'s summaries while rings trade arenas', () => {
    let x = 987654;
    const rand = (m: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % m;
    };
    const slots = 11;
    const rings = Array.from({ length: 40 }, () => new SummaryRing(slots, true));
    const models = rings.map(() => new Map<number, number>());
    const next = rings.map(() => 0);
    for (let step = 0; step < 20_000; step++) {
      const r = rand(rings.length);
      const ring = rings[r] as SummaryRing;
      const model = models[r] as Map<number, number>;
      if (rand(500) === 0) {
        ring.reset();
        model.clear();
        continue;
      }
      const i = next[r] as number;
      next[r] = i + 1;
      // sizes that grow and shrink in phases, so arenas are let go and taken again
      const phase = ((step >> 11) + r) % 3;
      const n = 1 + (phase === 0 ? rand(60) : phase === 1 ? rand(900) : rand(3000));
      ring.put(i, bytesOf(n, i));
      model.set(i, n);
      model.delete(i - slots);
      if (rand(10) === 0) {
        ring.drop(i);
        model.delete(i);
      }
      for (const [k, size] of model) if (!holds(ring, k, size)) expect.fail(`ring ${r}: call ${k}'s summary changed at step ${step}`);
      expect(spareBytes()).toBeLessThanOrEqual(SPARE_BYTES);
    }
    for (const ring of rings) ring.releaseTable();
  });

  it('should hand out a spare only when it is at least the size asked and at most SPARE_SLACK times it', () => {
    const a = new Uint8Array(1000);
    giveArena(a);
    expect(takeArena(1001)).not.toBe(a);
    expect(takeArena(Math.floor(1000 / SPARE_SLACK) - 1)).not.toBe(a);
    expect(takeArena(900)).toBe(a);
    expect(takeArena(900)).not.toBe(a);
  });
});
