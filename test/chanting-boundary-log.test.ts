/**
 * Chanting's text-to-call boundaries as a log of varint deltas (src/state/boundary-log.ts, branch mem38):
 * whatever int32 positions and calls come (backwards too, as a corrupt snapshot may hold), the log reads
 * back the newest `max` exactly, oldest first, through growth (copies) and the moves back to the area's start.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTRY_MAX, FIRST_LOG_WORDS, LOG_HEADER, logAppend, logClear, logCopy, logRead, logRoom, newestPos, wordsFor } from '../src/state/boundary-log.js';

/** A log that grows as the detector's does: a block half as large again when an entry may not fit. */
function replay(entries: readonly (readonly [number, number])[], max: number): { pos: number[]; call: number[]; words: number; newest: number } {
  let size = FIRST_LOG_WORDS;
  let words = new Int32Array(size + 3);
  let base = 3;
  for (const [p, c] of entries) {
    if (logRoom(words, base, size) < ENTRY_MAX) {
      const n = Math.max(wordsFor(words, base, ENTRY_MAX), Math.ceil((size * 1.5) / 8) * 8);
      const next = new Int32Array(n + 1);
      logCopy(words, base, next, 1);
      words = next;
      base = 1;
      size = n;
    }
    logAppend(words, base, size, p, c, max);
  }
  const pos = new Int32Array(max);
  const call = new Int32Array(max);
  const count = logRead(words, base, pos, call);
  return { pos: [...pos.subarray(0, count)], call: [...call.subarray(0, count)], words: size, newest: count === 0 ? NaN : newestPos(words, base) };
}

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

describe('chanting boundary log', () => {
  it('should read back the newest max boundaries of any int32 values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(int32, int32), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (entries, max) => {
        const got = replay(entries, max);
        const kept = entries.slice(Math.max(0, entries.length - max));
        expect(got.pos).toEqual(kept.map((e) => e[0]));
        expect(got.call).toEqual(kept.map((e) => e[1]));
        if (kept.length > 0) expect(got.newest).toBe(kept[kept.length - 1]?.[0]);
      }),
      { numRuns: 300 },
    );
  });

  it('should read back growing positions and calls (as a stream makes them) past 256 boundaries, in a bounded block', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5000), fc.nat(4)), { minLength: 1, maxLength: 1200 }), (steps) => {
        let p = 0;
        let c = 0;
        const entries = steps.map(([dp, dc]) => [(p += dp), (c += dc)] as const);
        const got = replay(entries, 256);
        const kept = entries.slice(Math.max(0, entries.length - 256));
        expect(got.pos).toEqual(kept.map((e) => e[0]));
        expect(got.call).toEqual(kept.map((e) => e[1]));
        // 256 entries of at most 3 bytes each (a position step below 2^13, a call step below 3 takes 2)
        expect(got.words).toBeLessThanOrEqual(LOG_HEADER + Math.ceil((256 * 3 + ENTRY_MAX) / 4) * 2);
      }),
      { numRuns: 100 },
    );
  });

  it('should empty on clear', () => {
    const words = new Int32Array(FIRST_LOG_WORDS);
    logAppend(words, 0, FIRST_LOG_WORDS, 5, 1, 256);
    logAppend(words, 0, FIRST_LOG_WORDS, 9, 2, 256);
    logClear(words, 0);
    expect(logRead(words, 0, new Int32Array(4), new Int32Array(4))).toBe(0);
    logAppend(words, 0, FIRST_LOG_WORDS, -3, 7, 256);
    const pos = new Int32Array(4);
    const call = new Int32Array(4);
    expect(logRead(words, 0, pos, call)).toBe(1);
    expect([pos[0], call[0]]).toEqual([-3, 7]);
  });
});
