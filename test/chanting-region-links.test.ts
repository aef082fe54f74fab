/**
 * Chanting's region keeps each gram chain link as the distance back to its bucket's previous position
 * (u16, 0 for none), not that position (i32): 512 bytes less a session with text at the defaults. A link
 * longer than maxPeriod ends the walk as none does, so the periods followed and the hits are the same (the
 * differential tests against the TypeScript twin, test/chanting-wasm-stream.test.ts, hold them so). A
 * region saved while links were positions (what older snapshots hold) is turned into distances on load:
 * exactly the region the stream would have today, and it goes on with the twin's hits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANTING_DEFAULTS } from '../src/index.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { chantLayout, regionFromPositions } from '../src/wasm/chant-layout.js';
import * as A from '../src/wasm/generated/abi.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { chantingOptions as options, prosePiece as piece } from './helpers/prose.js';
import { runs } from './helpers/streams.js';

/** Every field a detector reads after a push. */
const state = (s: ProseStream): string => JSON.stringify([s.pos, s.hitPeriod, s.hitPeriod > 0 ? s.hitAt : 0, s.hitPeriod > 0 ? s.hitRun : 0, s.said]);

/** Pushes every piece through both streams, stop by stop, and demands the same state at each. */
function feed(ts: TsProseStream, wasm: WasmProseStream, pieces: readonly string[], first: number, limit: number): void {
  pieces.forEach((text, n) => {
    let k = 0;
    while (k < text.length) {
      if (ts.pos >= limit) expect(wasm.rebase()).toBe(ts.rebase());
      const to = ts.push(text, k, text.length, first + n, limit);
      let j = k;
      while (j < to) j = wasm.push(text, j, to, first + n, limit);
      const [a, b] = [state(wasm), state(ts)];
      if (a !== b) expect(a).toBe(b);
      k = to;
    }
  });
}

/** The region's bytes as a stream saves them. */
function regionOf(s: WasmProseStream): Uint8Array {
  const w = new ByteWriter();
  s.save(w);
  const b = w.finish();
  return new ByteReader(b, 0, b.length).bytes();
}

describe("chanting's gram chain links as distances", () => {
  it('should lay out 512 bytes less than links as positions with the defaults', () => {
    const l = chantLayout(CHANTING_DEFAULTS);
    expect(l.ringSize).toBe(256);
    expect(l.slotSize).toBe(4_736);
    expect(l.positionsSize).toBe(5_248);
  });

  it('should turn a region saved with links as positions into the region of today, which goes on with the same hits', () => {
    let restored = 0;
    fc.assert(
      fc.property(options, fc.array(piece, { minLength: 2, maxLength: 16 }), fc.nat(), fc.constantFrom(2 ** 30, 600), (o, pieces, cut, limit) => {
        const at = 1 + (cut % (pieces.length - 1));
        const ts = new TsProseStream(o);
        const wasm = new WasmProseStream(o);
        const again = new WasmProseStream(o);
        try {
          feed(ts, wasm, pieces.slice(0, at), 0, limit);
          // the region as saved before: links as the positions the twin keeps (what the module kept then)
          const layout = chantLayout(o);
          const now = regionOf(wasm);
          const old = new Uint8Array(layout.positionsSize);
          old.set(now.subarray(0, A.CHANT_HEADER));
          const dv = new DataView(old.buffer);
          const prev = (ts as unknown as { search: { prevInBucket: Int32Array } }).search.prevInBucket;
          prev.forEach((q, j) => dv.setInt32(A.CHANT_HEADER + 4 * j, q, true));
          old.set(now.subarray(A.CHANT_HEADER + 2 * layout.ringSize), A.CHANT_HEADER + 4 * layout.ringSize);
          expect(regionFromPositions(old, layout)).toEqual(now);
          const w = new ByteWriter();
          w.bytes(old);
          const b = w.finish();
          again.load(new ByteReader(b, 0, b.length));
          expect(regionOf(again)).toEqual(now);
          feed(ts, again, pieces.slice(at), at, limit);
          restored++;
        } finally {
          wasm.dispose();
          again.dispose();
        }
      }),
      { numRuns: runs(100) },
    );
    expect(restored).toBeGreaterThan(50);
  });
});
