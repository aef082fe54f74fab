/**
 * The module's two caches (masked hashes, assembly/mask-cache.ts; sketches, assembly/sketch-cache.ts) live
 * in zeroed regions made the same way (slots.ts's zeroedRegion) when a thread's instance is made: none is
 * made in the middle of a batch (the sketch cache was made at the first text a batch tokenised, growing the
 * memory under the batch's reader), both survive re-instantiation after a trap, and they do not overlap.
 */
import { describe, expect, it } from 'vitest';
import { H_MASK_CACHE, H_SKETCH_CACHE, HEADER, MASK_CACHE_SLOTS, MAX_SKETCH_K, SKETCH_CACHE_SLOTS } from '../src/wasm/generated/abi.js';
import { WasmInstance } from '../src/wasm/wasm-module.js';

const MASK_BYTES = MASK_CACHE_SLOTS * 24;
const SKETCH_BYTES = SKETCH_CACHE_SLOTS * (24 + MAX_SKETCH_K * 4);

function regions(w: WasmInstance): { mask: number; sketch: number } {
  const u32 = w.views().u32;
  return { mask: u32[(HEADER + H_MASK_CACHE) >>> 2] as number, sketch: u32[(HEADER + H_SKETCH_CACHE) >>> 2] as number };
}

describe('cache regions', () => {
  it('should make both caches, zeroed and apart, when an instance is made', () => {
    const w = new WasmInstance();
    const { mask, sketch } = regions(w);
    expect(mask).toBeGreaterThan(0);
    expect(sketch).toBeGreaterThan(0);
    expect(mask + MASK_BYTES <= sketch || sketch + SKETCH_BYTES <= mask).toBe(true);
    const u8 = w.views().u8;
    expect(u8.subarray(mask, mask + MASK_BYTES).every((b) => b === 0)).toBe(true);
    expect(u8.subarray(sketch, sketch + SKETCH_BYTES).every((b) => b === 0)).toBe(true);
    expect(w.memory.buffer.byteLength).toBeGreaterThanOrEqual(Math.max(mask + MASK_BYTES, sketch + SKETCH_BYTES));
  });

  it('should keep both regions where they are after a trap and a fresh instance', () => {
    const w = new WasmInstance();
    const before = regions(w);
    expect(() => w.exports.debugTrap()).toThrow();
    w.recover();
    expect(w.exports.cachesReady()).toBe(1);
    expect(regions(w)).toEqual(before);
  });

  it('should not grow the memory for a cache when the first text is tokenised', () => {
    const w = new WasmInstance();
    const { sketch } = regions(w);
    const bytes = w.memory.buffer.byteLength;
    // the caches are there already: asking again makes nothing new
    expect(w.exports.cachesReady()).toBe(1);
    expect(regions(w).sketch).toBe(sketch);
    expect(w.memory.buffer.byteLength).toBe(bytes);
  });
});
