/**
 * Slots are carved by size class (assembly/slots.ts; the host's mirror, slotClassBytes in
 * src/wasm/session-capacity.ts, sizes the sessions a thread holds): up to 8 KiB a class wastes at most 3%
 * of the slot it holds (a default session's 5,856 B slot took a 6,144 B class, chanting's 5,248 B region a
 * 5,632 B one), and the module places slots of a class exactly the mirror's bytes apart.
 */
import { describe, expect, it } from 'vitest';
import { chantLayout } from '../src/wasm/chant-layout.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { slotClassBytes } from '../src/wasm/session-capacity.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { sharedCore } from '../src/wasm/wasm-core.js';

describe('slot size classes', () => {
  it('should waste at most 3% of a slot up to 8 KiB (6% up to 16 KiB), and hold the slot whole', () => {
    for (let size = 16; size <= 16384; size += 16) {
      const bytes = slotClassBytes(size);
      expect(bytes).toBeGreaterThanOrEqual(size);
      expect(bytes - size, `size ${size}`).toBeLessThanOrEqual(Math.max(48, (size <= 8192 ? 0.03 : 0.0625) * size));
    }
    expect(slotClassBytes(40_032)).toBe(65_536);
  });

  it('should place a default session\'s slots, and chanting regions, the mirror\'s bytes apart', () => {
    const o = resolveOptions({});
    const core = sharedCore();
    for (const layout of [slotLayout(o), chantLayout(o.detectors.chanting as NonNullable<typeof o.detectors.chanting>)]) {
      const config = core.acquire(layout);
      const slots = Array.from({ length: 3 }, () => core.alloc(config));
      const bytes = slotClassBytes(layout.slotSize);
      expect(bytes - layout.slotSize).toBeLessThan(64);
      // a chunk's slots are handed out one after the other
      expect([slots[1]! - slots[0]!, slots[2]! - slots[1]!]).toEqual([bytes, bytes]);
      for (const s of slots) core.free(s);
      core.release(config);
    }
  });
});
