/**
 * Chanting's region keeps each gram chain link as the distance back to its bucket's previous position
 * (u16, 0 for none), not that position (i32): 512 bytes less a session with text at the defaults. A link
 * longer than maxPeriod ends the walk as none does, so the periods followed and the hits are the same (the
 * differential tests against the TypeScript twin, test/chanting-wasm-stream.test.ts, hold them so). Since
 * snapshot format 11 the gram table has 64 buckets, not 256, each head its position's low 16 bits, and the
 * periods followed are bits with each one's run at its period (1,488 bytes less again: 3,248). Regions saved
 * before (what older snapshots hold) are turned into today's on load, chains made again from the ring:
 * every head and every link reads back as the native region's wherever a walk could use it, everything
 * else is exactly the region the stream would have today, and it goes on with the twin's hits. Since
 * format 12 the region keeps no gram hashes and its links in a byte when maxPeriod < 256 (768 bytes less
 * again: 2,480); a format-11 region is turned into exactly today's, and the checks of the older forms are
 * made on regions in format 11's form (today's with its gram hashes, the twin's, and links u16).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANTING_DEFAULTS } from '../src/index.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { type ProseStream, TsProseStream } from '../src/text/prose-stream.js';
import { chantLayout, regionFrom11, regionFromPositions, regionFromWide } from '../src/wasm/chant-layout.js';
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
  readonly gramAt: Int32Array;
}

const twin = (ts: TsProseStream): TwinSearch => (ts as unknown as { search: TwinSearch }).search;

/** The module's buckets (assembly/chant.ts). */
const BUCKETS = 64;

/** Chanting's options, as the layout takes them. */
type Options = Parameters<typeof chantLayout>[0];

/**
 * Today's region in format 11's form: links u16, and after the ring the gram hashes' low 16 bits, the twin's
 * (a ring slot's is the gram ending at the position last written there, 0 before the first gram), as the
 * module kept them before format 12.
 */
function to11(now: Uint8Array, ts: TsProseStream, o: Options): Uint8Array {
  const l = chantLayout(o);
  const v = l.v11;
  const out = new Uint8Array(v.size);
  const src = new DataView(now.buffer, now.byteOffset, now.byteLength);
  const dv = new DataView(out.buffer);
  const at = (k: number): number => l.fields.get(k) as number;
  out.set(now.subarray(0, A.CHANT_HEADER));
  for (let j = 0; j < l.ringSize; j++) dv.setUint16(v.links + 2 * j, l.linkBytes === 1 ? (now[at(A.CH_OFF_PREV) + j] as number) : src.getUint16(at(A.CH_OFF_PREV) + 2 * j, true), true);
  out.set(now.subarray(at(A.CH_OFF_HEADS), at(A.CH_OFF_HEADS) + 2 * BUCKETS), v.heads);
  out.set(now.subarray(at(A.CH_OFF_RUNS), at(A.CH_OFF_RUNS) + 4 * o.maxPeriod), v.runs);
  out.set(now.subarray(at(A.CH_OFF_RING), at(A.CH_OFF_RING) + 2 * l.ringSize), v.ring);
  twin(ts).gramAt.forEach((h, j) => dv.setUint16(v.grams + 2 * j, h & 0xffff, true));
  out.set(now.subarray(at(A.CH_OFF_FOLLOW), at(A.CH_OFF_FOLLOW) + 4 * ((o.maxPeriod >>> 5) + 1)), v.following);
  return out;
}

/** The region as saved with heads i32, flags u8 and maxPeriod + 1 periods: format 11's header, links, ring and gram hashes, the twin's wide arrays. */
function wideRegion(now: Uint8Array, ts: TsProseStream, o: Options): Uint8Array {
  const l = chantLayout(o);
  const w = l.wide;
  const t = twin(ts);
  const old = new Uint8Array(w.size);
  const dv = new DataView(old.buffer);
  old.set(now.subarray(0, A.CHANT_HEADER));
  // the twin's links (256 buckets) as distances: of the position last written at each ring slot
  const size = l.ringSize;
  t.prevInBucket.forEach((q, j) => {
    const p = t.pos - 1 - ((((t.pos - 1 - j) % size) + size) % size);
    dv.setUint16(A.CHANT_HEADER + 2 * j, p >= l.gram - 1 && q >= 0 && p - q >= 1 && p - q <= o.maxPeriod ? p - q : 0, true);
  });
  t.heads.forEach((q, b) => dv.setInt32(w.heads + 4 * b, q, true));
  t.runs.forEach((r, j) => dv.setInt32(w.runs + 4 * j, r, true));
  old.set(now.subarray(l.v11.ring, l.v11.ring + 4 * l.ringSize), w.ring);
  t.periods.forEach((p, j) => dv.setUint16(w.periods + 2 * j, p, true));
  old.set(t.following, w.following);
  return old;
}

/** Bucket b's head as the walk at the stream's position reads it back from a region in format 11's form (-1: none). */
function headRead(region: Uint8Array, o: Options, b: number): number {
  const l = chantLayout(o);
  const dv = new DataView(region.buffer, region.byteOffset, region.byteLength);
  const pos = dv.getInt32(A.CS_POS, true);
  const d = (pos - dv.getUint16(l.v11.heads + 2 * b, true)) & 0xffff;
  return d !== 0 && d <= o.maxPeriod && d <= pos ? pos - d : -1;
}

/** The links a walk from the stream's position on can follow: of positions within maxPeriod, to positions within maxPeriod (else 0). */
function linksRead(region: Uint8Array, o: Options): number[] {
  const l = chantLayout(o);
  const dv = new DataView(region.buffer, region.byteOffset, region.byteLength);
  const pos = dv.getInt32(A.CS_POS, true);
  const at = l.v11.links;
  const out: number[] = [];
  for (let p = Math.max(0, pos - o.maxPeriod); p < pos; p++) {
    const d = dv.getUint16(at + 2 * (p & (l.ringSize - 1)), true);
    out.push(d !== 0 && p - d >= pos - o.maxPeriod ? d : 0);
  }
  return out;
}

/**
 * A region in format 11's form without its chains (heads and links: they are compared as the walk reads them back) and
 * the runs of periods not followed (what a period left behind when it stopped being followed: never read).
 */
function withoutChains(region: Uint8Array, o: Options): Uint8Array {
  const l = chantLayout(o);
  const { heads, links, runs, following: bits } = l.v11;
  const out = region.slice();
  const dv = new DataView(out.buffer);
  out.fill(0, heads, heads + 2 * BUCKETS);
  out.fill(0, links, links + 2 * l.ringSize);
  for (let L = 1; L <= o.maxPeriod; L++) if (((dv.getUint32(bits + 4 * (L >>> 5), true) >>> (L & 31)) & 1) === 0) dv.setInt32(runs + 4 * (L - 1), 0, true);
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

/** The region of a stream in format 11's form (`ts`: the twin fed the same text, whose gram hashes it takes). */
const form11 = (s: WasmProseStream, ts: TsProseStream, o: Options): Uint8Array => to11(regionOf(s), ts, o);

/** Loads region bytes (in whatever form) into a stream. */
function loadInto(s: WasmProseStream, region: Uint8Array): void {
  const w = new ByteWriter();
  w.bytes(region);
  const b = w.finish();
  s.load(new ByteReader(b, 0, b.length));
}

/**
 * The set-up the checks of older region forms share: random options and pieces, fed to the twin and a module
 * stream up to a random cut; `loadOlder` then checks what it will of them and loads an older form of the
 * region into `again`, a fresh stream, which must go on through the rest of the pieces with the twin's state
 * at every stop. More than 50 of the runs must get that far.
 */
function olderFormGoesOn(loadOlder: (o: Options, ts: TsProseStream, wasm: WasmProseStream, again: WasmProseStream) => void): void {
  let restored = 0;
  fc.assert(
    fc.property(options, fc.array(piece, { minLength: 2, maxLength: 16 }), fc.nat(), fc.constantFrom(2 ** 30, 600), (o, pieces, cut, limit) => {
      const at = 1 + (cut % (pieces.length - 1));
      const ts = new TsProseStream(o);
      const wasm = new WasmProseStream(o);
      const again = new WasmProseStream(o);
      try {
        feed(ts, wasm, pieces.slice(0, at), 0, limit);
        loadOlder(o, ts, wasm, again);
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
}

describe("chanting's gram chain links as distances", () => {
  it('should lay out 512 bytes less than links as positions with the defaults (format 11), and 768 less again without gram hashes and with byte links (format 12)', () => {
    const l = chantLayout(CHANTING_DEFAULTS);
    expect(l.ringSize).toBe(256);
    expect(l.linkBytes).toBe(1);
    expect(l.slotSize).toBe(2_480);
    expect(l.v11.size).toBe(3_248);
    expect(l.wide.size).toBe(4_736);
    expect(l.positionsSize).toBe(5_248);
  });

  it('should make regions of the 2,496-byte size class with the defaults (3,264 in format 11, 4,736 before)', () => {
    expect(slotClassBytes(chantLayout(CHANTING_DEFAULTS).slotSize)).toBe(2_496);
    expect(chantLayout({ ...CHANTING_DEFAULTS, maxPeriod: 256 }).linkBytes).toBe(2);
  });

  it('should turn a region saved with links as positions into the region of today, which goes on with the same hits', () => {
    olderFormGoesOn((o, ts, wasm, again) => {
      // the region as saved before: links as the positions the twin keeps (what the module kept then),
      // heads, flags and periods wide
      const layout = chantLayout(o);
      const now = form11(wasm, ts, o);
      const wide = wideRegion(now, ts, o);
      const old = new Uint8Array(layout.positionsSize);
      old.set(wide.subarray(0, A.CHANT_HEADER));
      const dv = new DataView(old.buffer);
      twin(ts).prevInBucket.forEach((q, j) => dv.setInt32(A.CHANT_HEADER + 4 * j, q, true));
      old.set(wide.subarray(A.CHANT_HEADER + 2 * layout.ringSize), A.CHANT_HEADER + 4 * layout.ringSize);
      expect(regionFromPositions(old, layout)).toEqual(wide);
      loadInto(again, old);
      const loaded = form11(again, ts, o);
      expect(withoutChains(loaded, o)).toEqual(withoutChains(now, o));
      expect(linksRead(loaded, o)).toEqual(linksRead(now, o));
      for (let h = 0; h < BUCKETS; h++) expect(headRead(loaded, o, h)).toBe(headRead(now, o, h));
    });
  });
});

describe("chanting's 64 bucket heads as low 16 bits, the periods followed as bits", () => {
  it("should read every head back as the twin's 4 buckets do wherever the walk can use it, and turn a wide region into one that goes on with the same hits", () => {
    olderFormGoesOn((o, ts, wasm, again) => {
      const now = form11(wasm, ts, o);
      const t = twin(ts);
      // the twin's head, where the next character's walk could use it (within maxPeriod), else none
      const usable = (q: number): number => (q >= 0 && t.pos - q >= 1 && t.pos - q <= o.maxPeriod ? q : -1);
      // the module's bucket b holds the twin's buckets 4b..4b+3 (the top 6 bits of the same product, not 8)
      const head = (b: number): number => Math.max(...[0, 1, 2, 3].map((s) => usable(t.heads[4 * b + s] as number)));
      for (let b = 0; b < BUCKETS; b++) expect(headRead(now, o, b)).toBe(head(b));
      const wide = wideRegion(now, ts, o);
      const today = regionFromWide(wide, chantLayout(o));
      expect(withoutChains(today, o)).toEqual(withoutChains(now, o));
      expect(linksRead(today, o)).toEqual(linksRead(now, o));
      for (let b = 0; b < BUCKETS; b++) expect(headRead(today, o, b)).toBe(head(b));
      loadInto(again, wide);
    });
  });

  it('should refuse a wide region whose flag is neither 0 nor 1, as the wide region was refused', () => {
    const o = CHANTING_DEFAULTS;
    const ts = new TsProseStream(o);
    const wasm = new WasmProseStream(o);
    const again = new WasmProseStream(o);
    try {
      feed(ts, wasm, ['la la la la la la la la la la la la la la la '], 0, 2 ** 30);
      const wide = wideRegion(form11(wasm, ts, o), ts, o);
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

describe("chanting's region without gram hashes, links in a byte (format 12)", () => {
  it('should turn a format-11 region into exactly the region of today, which goes on with the same hits', () => {
    olderFormGoesOn((o, ts, wasm, again) => {
      const now = regionOf(wasm);
      const old = to11(now, ts, o);
      expect(regionFrom11(old, chantLayout(o))).toEqual(now);
      loadInto(again, old);
      expect(regionOf(again)).toEqual(now);
    });
  });

  it('should read a link longer than maxPeriod in a format-11 region as none, as the walk did', () => {
    const o = CHANTING_DEFAULTS;
    const l = chantLayout(o);
    const ts = new TsProseStream(o);
    const wasm = new WasmProseStream(o);
    try {
      feed(ts, wasm, ['the same words again and again. '.repeat(4)], 0, 2 ** 30);
      const old = to11(regionOf(wasm), ts, o);
      new DataView(old.buffer).setUint16(l.v11.links + 2 * 7, o.maxPeriod + 1, true);
      expect(regionFrom11(old, l)[(l.fields.get(A.CH_OFF_PREV) as number) + 7]).toBe(0);
    } finally {
      wasm.dispose();
    }
  });
});
