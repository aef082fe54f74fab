/**
 * Chanting remembers where each piece of text began and which call it came with (up to 256 boundaries, to
 * say which call a chant began in). A session's boundaries are a log of deltas (state/boundary-log.ts, branch
 * mem38) in a block of 16 words that grows half again as its pieces come, ~2 bytes a boundary (before: two
 * arrays of 32 boundaries doubling up to 256, 8 bytes a boundary; first 2 KB each from the first text). A snapshot still
 * holds all 256 as before (the ones not made yet as the old arrays held them: 0, moved back by each
 * rebase), and a session restored from one goes on with the signals of one that never stopped, rebased or not.
 * The WebAssembly pipeline's detectors (`shared`) keep theirs in blocks of the thread's chunks
 * (word-blocks.ts, branch mem6k), side by side with other sessions' and given back on dispose.
 */
import { describe, expect, it } from 'vitest';
import { ChantingDetector } from '../src/detectors/chanting.js';
import type { ObservedCall } from '../src/detectors/detector.js';
import { CHANTING_DEFAULTS } from '../src/options/detector-options.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';

const call = (index: number, text: string) => ({ index, event: { tool: 't', text } }) as unknown as ObservedCall;

/** Words of the detector's boundary block. */
const words = (d: ChantingDetector): number => (d as unknown as { cap: number }).cap;

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
  it.each([false, true])('should hold its boundaries in 16 words for a few pieces of text, growing to ~2 bytes a boundary (shared %s)', (shared) => {
    const d = new ChantingDetector(CHANTING_DEFAULTS, 2 ** 30, undefined, shared);
    for (let i = 0; i < 10; i++) d.record(call(i, text(i)));
    expect(words(d)).toBe(16);
    // 100 boundaries: the arrays held 128 positions and 128 calls (256 words)
    for (let i = 10; i < 100; i++) d.record(call(i, text(i)));
    expect(words(d)).toBeLessThanOrEqual(64);
    // past 256 pieces the oldest go: the block stops growing
    for (let i = 100; i < 400; i++) d.record(call(i, text(i)));
    const full = words(d);
    expect(full).toBeLessThanOrEqual(160);
    for (let i = 400; i < 1000; i++) d.record(call(i, text(i)));
    expect(words(d)).toBe(full);
    d.dispose();
    expect(words(d)).toBe(0);
  });

  for (const [rebaseAt, shared] of [[2 ** 30, false], [300, false], [2 ** 30, true], [300, true]] as const) {
    it(`should restore from a snapshot taken with few boundaries and go on with the same signals, rebaseAt ${rebaseAt}, shared ${shared}`, () => {
      const ran = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt, undefined, shared);
      const cut = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt, undefined, shared);
      for (let i = 0; i < 20; i++) {
        ran.record(call(i, text(i)));
        cut.record(call(i, text(i)));
      }
      const bytes = snapshot(cut);
      const restored = new ChantingDetector(CHANTING_DEFAULTS, rebaseAt, undefined, shared);
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
      for (const d of [ran, cut, restored]) d.dispose();
    });
  }
});
