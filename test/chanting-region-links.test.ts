/**
 * Chanting's region keeps each gram chain link as the distance back to its bucket's previous position
 * (u16, 0 for none), not that position (i32): 512 bytes less a session with text at the defaults. A link
 * longer than maxPeriod ends the walk as none does, so the periods followed and the hits are the same (the
 * differential tests against the TypeScript twin, test/chanting-wasm-stream.test.ts, hold them so). Since
 * then the bucket heads are their positions' low 16 bits, the following flags bits, and the periods and
 * runs maxPeriod entries (704 bytes less again: 4,032). Regions saved before (what older snapshots hold)
 * are turned into today's on load: every head reads back as the twin's head wherever the walk could use it,
 * everything else is exactly the region the stream would have today, and it goes on with the twin's hits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANTING_DEFAULTS } from '../src/index.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { chantLayout, regionFromPositions, regionFromWide } from '../src/wasm/chant-layout.js';
import * as A from '../src/wasm/generated/abi.js';
import { WasmProseStream } from '../src/wasm/wasm-prose-stream.js';
import { chantingOptions as options, prosePiece as piece } from './helpers/prose.js';
import { runs } from './helpers/streams.js';
import { slotClassBytes } from '../src/wasm/slot-layout.js';

/** The twin's period search state a region saved before held as it is (heads i32, flags u8, maxPeriod + 1 periods). */
interface TwinSearch {
  readonly pos: number;
  readonly heads: Int32Array;
  readonly prevInBucket: Int32Array;
  readonly periods: Uint16Array;
  readonly runs: Int32Array;
  readonly following: Uint8Array;
}

const twin = (ts: TsProseStream): TwinSearch => (ts as unknown as { search: TwinSearch }).search;

/** The region as saved with heads i32, flags u8 and maxPeriod + 1 periods: today's header, links, ring and gram hashes, the twin's wide arrays. */
function wideRegion(now: Uint8Array, ts: TsProseStream, o: Parameters<typeof chantLayout>[0]): Uint8Array {
  const l = chantLayout(o);
  const w = l.wide;
  const t = twin(ts);
  const old = new Uint8Array(w.size);
  const dv = new DataView(old.buffer);
  old.set(now.subarray(0, A.CHANT_HEADER + 2 * l.ringSize));
  t.heads.forEach((q, b) => dv.setInt32(w.heads + 4 * b, q, true));
  t.runs.forEach((r, j) => dv.setInt32(w.runs + 4 * j, r, true));
  const ringAt = l.fields.get(A.CH_OFF_RING) as number;
  old.set(now.subarray(ringAt, ringAt + 4 * l.ringSize), w.ring);
  t.periods.forEach((p, j) => dv.setUint16(w.periods + 2 * j, p, true));
  old.set(t.following, w.following);
  return old;
}

/** Bucket b's head as the walk at the stream's position reads it back from a region (-1: none). */
function headRead(region: Uint8Array, o: Parameters<typeof chantLayout>[0], b: number): number {
  const l = chantLayout(o);
  const dv = new DataView(region.buffer, region.byteOffset, region.byteLength);
  const pos = dv.getInt32(A.CS_POS, true);
  const d = (pos - dv.getUint16((l.fields.get(A.CH_OFF_HEADS) as number) + 2 * b, true)) & 0xffff;
  return d !== 0 && d <= o.maxPeriod && d <= pos ? pos - d : -1;
}

/** Today's region without its heads (they are compared as the walk reads them back). */
function withoutHeads(region: Uint8Array, o: Parameters<typeof chantLayout>[0]): Uint8Array {
  const at = chantLayout(o).fields.get(A.CH_OFF_HEADS) as number;
  const out = region.slice();
  out.fill(0, at, at + 2 * 256);
  return out;
}

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
    expect(l.slotSize).toBe(4_032);
    expect(l.wide.size).toBe(4_736);
    expect(l.positionsSize).toBe(5_248);
  });

  it('should make regions of the 4,032-byte size class with the defaults (4,096 and 4,736 before)', () => {
    expect(slotClassBytes(chantLayout(CHANTING_DEFAULTS).slotSize)).toBe(4_032);
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
          // the region as saved before: links as the positions the twin keeps (what the module kept then),
          // heads, flags and periods wide
          const layout = chantLayout(o);
          const now = regionOf(wasm);
          const wide = wideRegion(now, ts, o);
          const old = new Uint8Array(layout.positionsSize);
          old.set(wide.subarray(0, A.CHANT_HEADER));
          const dv = new DataView(old.buffer);
          twin(ts).prevInBucket.forEach((q, j) => dv.setInt32(A.CHANT_HEADER + 4 * j, q, true));
          old.set(wide.subarray(A.CHANT_HEADER + 2 * layout.ringSize), A.CHANT_HEADER + 4 * layout.ringSize);
          expect(regionFromPositions(old, layout)).toEqual(wide);
          const w = new ByteWriter();
          w.bytes(old);
          const b = w.finish();
          again.load(new ByteReader(b, 0, b.length));
          expect(withoutHeads(regionOf(again), o)).toEqual(withoutHeads(now, o));
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

describe("chanting's bucket heads as low 16 bits, following flags as bits", () => {
  it('should read every head back as the twin does wherever the walk can use it, and turn a wide region into one that goes on with the same hits', () => {
    let restored = 0;
    fc.assert(
      fc.property(options, fc.array(piece, { minLength: 2, maxLength: 16 }), fc.nat(), fc.constantFrom(2 ** 30, 600), (o, pieces, cut, limit) => {
        const at = 1 + (cut % (pieces.length - 1));
        const ts = new TsProseStream(o);
        const wasm = new WasmProseStream(o);
        const again = new WasmProseStream(o);
        try {
          feed(ts, wasm, pieces.slice(0, at), 0, limit);
          const now = regionOf(wasm);
          const t = twin(ts);
          // the twin's head, where the next character's walk could use it (within maxPeriod), else none
          const usable = (q: number): number => (q >= 0 && t.pos - q >= 1 && t.pos - q <= o.maxPeriod ? q : -1);
          for (let b = 0; b < 256; b++) expect(headRead(now, o, b)).toBe(usable(t.heads[b] as number));
          const wide = wideRegion(now, ts, o);
          const today = regionFromWide(wide, chantLayout(o));
          expect(withoutHeads(today, o)).toEqual(withoutHeads(now, o));
          for (let b = 0; b < 256; b++) expect(headRead(today, o, b)).toBe(usable(t.heads[b] as number));
          const w = new ByteWriter();
          w.bytes(wide);
          const bytes = w.finish();
          again.load(new ByteReader(bytes, 0, bytes.length));
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

  it('should refuse a wide region whose flag is neither 0 nor 1, as the wide region was refused', () => {
    const o = CHANTING_DEFAULTS;
    const ts = new TsProseStream(o);
    const wasm = new WasmProseStream(o);
    const again = new WasmProseStream(o);
    try {
      feed(ts, wasm, ['la la la la la la la la la la la la la la la '], 0, 2 ** 30);
      const wide = wideRegion(regionOf(wasm), ts, o);
      wide[chantLayout(o).wide.following + 3] = 2;
      const w = new ByteWriter();
      w.bytes(wide);
      const bytes = w.finish();
      expect(() => again.load(new ByteReader(bytes, 0, bytes.length))).toThrow(/chanting state, check 3/);
    } finally {
      wasm.dispose();
      again.dispose();
    }
  });
});
