/**
 * Chanting remembers where each piece of text began and which call it came with (up to 256 boundaries, to
 * say which call a chant began in). A session's arrays start at 32 boundaries and double as its pieces
 * come (most sessions never reach 256; they held 2 KB each from the first text before). A snapshot still
 * holds all 256 as before (the ones not made yet as the old arrays held them: 0, moved back by each
 * rebase), and a session restored from one goes on with the signals of one that never stopped, rebased or not.
 */
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/detectors/detector.js';
import { CHANTING_DEFAULTS } from '../src/options/detector-options.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';

const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;

/** Boundaries the detector's array holds (positions and calls, in one array of twice as many). */
const bounds = (d: ChantingDetector): number => (d as unknown as { bound: Int32Array }).bound.length / 2;

function snapshot(d: ChantingDetector): Uint8Array {
  const w = new ByteWriter();
  d.save(w);
  return w.finish().slice();
}

/** Text of call `i`: varied prose, now and then the same sentence over and over. */
function text(i: number): string {
  return i % 9 === 8 ? 'I will try the same thing again now. '.repeat(12) : `Step ${i}: reading file number ${i * 7} and the tests of module ${i % 5}. `;
}

describe('chanting boundaries sized to the text', () => {
  it('should hold 32 boundaries for a few pieces of text, doubling up to 256', () => {
    const d = new ChantingDetector(CHANTING_DEFAULTS);
    for (let i = 0; i < 10; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(32);
    for (let i = 10; i < 40; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(64);
    for (let i = 40; i < 400; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(256);
  });

  for (const rebaseAt of [2 ** 30, 300]) {
    it(`should restore from a snapshot taken with few boundaries and go on with the same signals, rebaseAt ${rebaseAt}`, () => {
      const ran = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt);
      const cut = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt);
      for (let i = 0; i < 20; i++) {
        ran.record(call(i, text(i)));
        cut.record(call(i, text(i)));
      }
      const bytes = snapshot(cut);
      const restored = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt);
      restored.load(new ByteReader(bytes));
      // the snapshot holds all 256 boundaries, whatever the arrays held: saved again, the same bytes
      expect(snapshot(restored)).toEqual(bytes);
      expect(snapshot(ran)).toEqual(bytes);
      let hits = 0;
      for (let i = 20; i < 300; i++) {
        ran.record(call(i, text(i)));
        restored.record(call(i, text(i)));
        const s = ran.check();
        if (s !== null) hits++;
        expect(restored.check()).toEqual(s);
      }
      expect(hits).toBeGreaterThan(0);
      expect(snapshot(restored)).toEqual(snapshot(ran));
    });
  }
});
