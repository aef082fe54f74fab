/**
 * Similar args' SummaryRing keeps each summary in a block of its size class (src/state/summary-blocks.ts):
 * every summary held reads back as it was put, whatever the sizes, drops, resets and rings side by side
 * (against a plain model of the newest `slots` puts); a block is at most a class step larger than its
 * summary; blocks given back are taken again, so rings that go on putting stop growing the chunks. It kept
 * one arena a ring before, about twice its summaries (branch mem6k).
 */
import { describe, expect, it } from 'vitest';
import { SummaryBlocks, blockBytes, classOf, sharedSummaryBytes } from '../src/state/summary-blocks.js';
import { SummaryRing } from '../src/state/summary-ring.js';

/** `n` bytes made from `seed`. */
const bytesOf = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) & 0xff);

/** Whether call `k`'s summary (`n` bytes) reads back from the ring as bytesOf(n, k). */
const holds = (ring: SummaryRing, k: number, n: number): boolean => {
  const b = ring.bytesOf(k);
  const at = ring.at(k);
  for (let i = 0; i < n; i++) if (b[at + i] !== ((k * 31 + i * 7) & 0xff)) return false;
  return true;
};

/** A seeded generator of numbers below `m`. */
const randomBelow = (seed: number): ((m: number) => number) => {
  let x = seed;
  return (m) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % m;
  };
};

describe('summary ring blocks', () => {
  it('should size classes a step apart: 16 B to 256 B, 64 B to 1 KiB, 256 B to 4 KiB, then powers of two', () => {
    for (let n = 1; n <= 20_000; n++) {
      const b = blockBytes(n);
      const step = n <= 256 ? 16 : n <= 1024 ? 64 : n <= 4096 ? 256 : 0;
      if (b < n || (step !== 0 && b - n >= step) || (step === 0 && b >= 2 * n)) expect.fail(`a block of ${b} B for ${n} B`);
      if (n > 1 && classOf(n) < classOf(n - 1)) expect.fail(`class of ${n} below that of ${n - 1}`);
    }
  });

  it('should read back every summary held as it was put, rings side by side sharing blocks, own and shared', () => {
    const rand = randomBelow(12345);
    for (const shared of [false, true]) {
      const rings = [1, 2, 5, 11, 31].map((slots) => ({ ring: new SummaryRing(slots, shared), slots, model: new Map<number, number>() }));
      for (let i = 0; i < 600; i++) {
        for (const { ring, slots, model } of rings) {
          const n = 1 + (rand(4) === 0 ? rand(4096) : rand(300));
          ring.put(i, bytesOf(n, i));
          model.set(i, n);
          model.delete(i - slots);
          if (rand(10) === 0) {
            const d = i - rand(slots);
            ring.drop(d);
            model.delete(d);
          }
          if (rand(97) === 0) {
            ring.reset();
            model.clear();
          }
          for (let k = Math.max(0, i - slots - 2); k <= i; k++) if (ring.has(k) !== model.has(k)) expect.fail(`slots ${slots}: call ${k} held ${ring.has(k)}`);
          for (const [k, size] of model) if (!holds(ring, k, size)) expect.fail(`slots ${slots}, shared ${shared}: call ${k}'s summary changed after put ${i}`);
          let live = 0;
          for (const size of model.values()) live += size;
          expect(ring.heldBytes()).toBe(live);
        }
      }
      for (const { ring } of rings) if (shared) ring.dropTable();
    }
  });

  it('should give every block back when dropped: sessions made after take them, the chunks stop growing', () => {
    const rand = randomBelow(777);
    const neighbour = new SummaryRing(11, true);
    const grownBy: number[] = [];
    // sessions one after another (60 calls each, then disposed), a neighbour's ring beside them all along
    for (let session = 0; session < 40; session++) {
      const before = sharedSummaryBytes();
      const ring = new SummaryRing(11, true);
      for (let i = 0; i < 60; i++) {
        const n = 1 + rand(600);
        ring.put(i, bytesOf(n, i));
        neighbour.put(session * 60 + i, bytesOf(1 + rand(600), i + 1));
        if (!holds(ring, i, n)) expect.fail(`session ${session}, call ${i}`);
      }
      ring.dropTable();
      grownBy.push(sharedSummaryBytes() - before);
    }
    // the last 20 sessions (11 summaries of up to 640 B held each) took no more chunk bytes than one session's summaries
    expect(grownBy.slice(20).reduce((a, b) => a + b, 0)).toBeLessThan(11 * 640);
    neighbour.dropTable();
  });

  it('should take blocks given back again: rings that go on putting stop growing the chunks', () => {
    const blocks = new SummaryBlocks();
    const rand = randomBelow(4242);
    const held: { place: number; n: number }[] = [];
    let grownAt = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = 1 + rand(500);
      const before = blocks.bytes;
      held.push({ place: blocks.take(n), n });
      if (held.length > 300) {
        const { place, n: m } = held.splice(rand(held.length), 1)[0] as { place: number; n: number };
        blocks.give(place, m);
      }
      if (blocks.bytes !== before) grownAt = i;
    }
    // 300 blocks of at most 512 B live: chunks stop growing long before the end
    expect(grownAt).toBeLessThan(10_000);
    expect(blocks.bytes).toBeLessThan(3 * 300 * 512);
  });

  it('should keep the thread\'s chunks for many sessions\' rings, each block one ring\'s', () => {
    const rings = Array.from({ length: 200 }, () => new SummaryRing(11, true));
    const before = sharedSummaryBytes();
    for (let i = 0; i < 40; i++) for (const [r, ring] of rings.entries()) ring.put(i, bytesOf(100 + ((r + i) % 50), i * 1000 + r));
    for (let i = 29; i < 40; i++) {
      for (const [r, ring] of rings.entries()) {
        if (!ring.has(i)) expect.fail(`ring ${r} lost call ${i}`);
        const n = 100 + ((r + i) % 50);
        const b = ring.bytesOf(i);
        const at = ring.at(i);
        const want = bytesOf(n, i * 1000 + r);
        for (let k = 0; k < n; k++) if (b[at + k] !== want[k]) expect.fail(`ring ${r}: byte ${k} of call ${i}`);
      }
    }
    // 200 rings x 11 summaries of 100-149 B: blocks of at most 160 B, and chunks not much past them
    expect(sharedSummaryBytes() - before).toBeLessThan(1.3 * 200 * 11 * 160);
    for (const ring of rings) ring.dropTable();
  });
});
