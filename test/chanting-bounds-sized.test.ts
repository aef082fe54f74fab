/**
 * Chanting remembers where each piece of text began and which call it came with (up to 256 boundaries, to
 * say which call a chant began in). A session's arrays start at 32 boundaries and double as its pieces
 * come (most sessions never reach 256; they held 2 KB each from the first text before). A snapshot still
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

/** Boundaries the detector's block holds (positions and calls, in one block of twice as many). */
const bounds = (d: ChantingDetector): number => (d as unknown as { cap: number }).cap;

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
  it.each([false, true])('should hold 32 boundaries for a few pieces of text, doubling up to 256 (shared %s)', (shared) => {
    const d = new ChantingDetector(CHANTING_DEFAULTS, 2 ** 30, undefined, shared);
    for (let i = 0; i < 10; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(32);
    for (let i = 10; i < 40; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(64);
    for (let i = 40; i < 400; i++) d.record(call(i, text(i)));
    expect(bounds(d)).toBe(256);
    d.dispose();
    expect(bounds(d)).toBe(0);
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
