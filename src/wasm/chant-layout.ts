/**
 * The region a text stream's chanting state takes in linear memory (assembly/chant.ts), and the
 * config-table entry that tells the module its parameters and where each array lies. The parameters are
 * the period search's (`gramPlan`, ring size, drop factor: the same functions the TypeScript twin uses)
 * and the sentence tracker's.
 *
 * ```
 *  region: [slot header | scalars | last stop | sentence ring (CS_*) ]  chunks..shown   (CHANT_HEADER bytes)
 *          links u8[size] (u16 when maxPeriod > 255)  heads u16[64]  runs i32[maxPeriod] (by period)
 *          ring u16[size]  following u32[maxPeriod / 32 + 1] (bits, by period)
 * ```
 * No gram hash is kept (period-search.ts keeps one a position: it only sorts out chain entries before their
 * characters are compared, so comparing the characters alone follows the same periods). A link is the
 * distance back to its bucket's previous position (0: none, as for one past maxPeriod, which ends the walk
 * either way; never more than maxPeriod, so a byte when maxPeriod < 256); a bucket's head is its position's
 * low 16 bits, and there are 64 buckets, not 256 (assembly/chant.ts says why none of this changes a walk's
 * finds); the periods followed are the bits set in the following words, each one's run kept at its period.
 * 2,480 bytes with the defaults (maxPeriod 200: a ring of 256; a slot class of 2,496). Regions saved before
 * are turned into today's on load: format 11's with links u16 and the gram hashes' low 16 bits (3,248 bytes,
 * `regionFrom11`); before, with 256 heads i32, flags u8 and a list of periods and runs (4,736 bytes,
 * `regionFromWide`, then `regionFrom11`), and before that with links as i32 positions too (5,248,
 * `regionFromPositions` first).
 */
import type { ChantingOptions } from '../options/detector-options.js';
import { gramDropFactor, gramPlan, ringSizeFor } from '../text/period-search.js';
import type { ConfigEntry } from './wasm-core.js';
import * as A from './generated/abi.js';

/** Bucket heads of the gram table (assembly/chant.ts's; period-search.ts has 256, as regions saved before format 11). */
const BUCKETS = 64;
/** A gram's bucket: its hash times the golden ratio's top 6 bits (assembly/chant.ts). */
const BUCKET_SHIFT = 26;
/** The buckets of the regions saved before format 11 (and of period-search.ts). */
const WIDE_BUCKETS = 256;
/** Multiplier of the rolling gram hash (period-search.ts). */
const HASH_BASE = 0x01000193;

/** A chanting region's layout: its config entry, and what the host reads of the region itself. */
export interface ChantLayout extends ConfigEntry {
  /** Positions the ring holds (a power of two). */
  readonly ringSize: number;
  /** Byte offset of the ring (u16 units) in the region. */
  readonly ringOff: number;
  /** The region's bytes as saved before links were distances (links as i32 positions; heads, flags and periods wide). */
  readonly positionsSize: number;
  /** The region's bytes as saved with heads i32, flags u8 and maxPeriod + 1 periods (links distances), and where its arrays were. */
  readonly wide: WideLayout;
  /** The region as saved in snapshot format 11 (links u16, the gram hashes' low 16 bits u16), and where its arrays were. */
  readonly v11: Form11Layout;
  /** Bytes a chain link takes: 1 when maxPeriod < 256, else 2. */
  readonly linkBytes: number;
  /** The gram length and the longest period (what turning positions into distances needs). */
  readonly gram: number;
  readonly maxPeriod: number;
}

/** Where a region saved with heads i32, flags u8 and maxPeriod + 1 periods held its arrays (links were distances already). */
export interface WideLayout {
  readonly size: number;
  readonly heads: number;
  readonly runs: number;
  readonly ring: number;
  readonly periods: number;
  readonly following: number;
}

/** Where a region saved in snapshot format 11 held its arrays (links u16, gram hashes u16 after the ring). */
export interface Form11Layout {
  readonly size: number;
  readonly links: number;
  readonly heads: number;
  readonly runs: number;
  readonly ring: number;
  readonly grams: number;
  readonly following: number;
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** The arrays' offsets, in layout order (links, heads, runs, ring, [grams, [periods,]] following). */
type Five = [number, number, number, number, number];
type Six = [number, number, number, number, number, number];
type Seven = [number, number, number, number, number, number, number];

/** Lays out arrays of the given bytes from CHANT_HEADER on, each 4-byte aligned: their offsets and the region's size. */
function placeAll(bytes: readonly number[]): { at: number[]; size: number } {
  let off = A.CHANT_HEADER;
  const at = bytes.map((b) => {
    const o = off;
    off += align(b, 4);
    return o;
  });
  return { at, size: align(off, 16) };
}

const layouts = new WeakMap<ChantingOptions, ChantLayout>();

/** The region layout for chanting options (once per options object: streams sharing options share it). */
export function chantLayout(o: ChantingOptions): ChantLayout {
  let l = layouts.get(o);
  if (l === undefined) {
    l = layOut(o);
    layouts.set(o, l);
  }
  return l;
}

function layOut(o: ChantingOptions): ChantLayout {
  const plan = gramPlan(o.maxPeriod, o.threshold, o.minLength, o.longChunk, o.longRepetitions);
  const size = ringSizeFor(o.maxPeriod, plan.gram, plan.stride);
  const P = o.maxPeriod;
  // a link is at most maxPeriod (a head further back reads as none)
  const linkBytes = P < 256 ? 1 : 2;
  const now = placeAll([linkBytes * size, 2 * BUCKETS, 4 * P, 2 * size, 4 * ((P >>> 5) + 1)]);
  const [links, heads, runs, ring, following] = now.at as Five;
  const slotSize = now.size;
  const f11 = placeAll([2 * size, 2 * BUCKETS, 4 * P, 2 * size, 2 * size, 4 * ((P >>> 5) + 1)]);
  const [l11, h11, r11, ring11, g11, f11Following] = f11.at as Six;
  const v11: Form11Layout = { size: f11.size, links: l11, heads: h11, runs: r11, ring: ring11, grams: g11, following: f11Following };
  const old = placeAll([2 * size, 4 * WIDE_BUCKETS, 4 * (P + 1), 2 * size, 2 * size, 2 * (P + 1), P + 1]);
  const [, oHeads, oRuns, oRing, , oPeriods, oFollowing] = old.at as Seven;
  const wide: WideLayout = { size: old.size, heads: oHeads, runs: oRuns, ring: oRing, periods: oPeriods, following: oFollowing };
  const fields = new Map<number, number>([
    [A.C_FLAGS, A.CF_CHANT],
    [A.C_SLOT_SIZE, slotSize],
    // regions are carved a few at a time: only sessions with text have one
    [A.C_CHUNK, Math.max(1, Math.min(16, Math.floor(32768 / slotSize)))],
    [A.CH_MAXP, o.maxPeriod],
    [A.CH_GRAM, plan.gram],
    [A.CH_STRIDE, plan.stride],
    [A.CH_NEED, o.threshold - 1],
    [A.CH_LONG_NEED, o.longRepetitions - 1],
    [A.CH_MINLEN, o.minLength],
    [A.CH_LONG_CHUNK, o.longChunk],
    [A.CH_REPS, o.longRepetitions],
    [A.CH_SIZE, size],
    [A.CH_DROP, gramDropFactor(plan.gram) >>> 0],
    [A.CH_OFF_RING, ring],
    [A.CH_OFF_PREV, links],
    [A.CH_OFF_HEADS, heads],
    [A.CH_LINK_WIDE, linkBytes - 1],
    [A.CH_OFF_RUNS, runs],
    [A.CH_OFF_FOLLOW, following],
  ]);
  return { slotSize, fields, semanticThreshold: 0, ringSize: size, ringOff: ring, positionsSize: wide.size + 2 * size, wide, v11, linkBytes, gram: plan.gram, maxPeriod: o.maxPeriod };
}

/**
 * A region saved with 256 heads i32, flags u8 and a list of periods and runs (`layout.wide.size` bytes) in
 * format 11's (`layout.v11`; `regionFrom11` then makes it today's). The gram chains are made again from the ring (every gram ending within maxPeriod of the
 * stream's position has its characters there): each such position's link to the previous one of its
 * bucket (0: none within maxPeriod), each bucket's head (0xffff: none, as a reset region holds), links of
 * older positions 0 (no walk reaches them). Each period of the list becomes its bit with its run at it; a
 * list or flags the saved region's check refused (a flag other than 1, a period out of range, unflagged or
 * twice) becomes the bit of period 0, which chantCheck refuses. The header (scalars, sentences), the ring
 * and the gram hashes are copied as they are. The region goes on with the same hits as the one saved.
 */
export function regionFromWide(old: Uint8Array, layout: ChantLayout): Uint8Array {
  const w = layout.wide;
  const v = layout.v11;
  const P = layout.maxPeriod;
  const G = layout.gram;
  const size = layout.ringSize;
  const mask = size - 1;
  const out = new Uint8Array(v.size);
  const src = new DataView(old.buffer, old.byteOffset, old.byteLength);
  const dst = new DataView(out.buffer);
  out.set(old.subarray(0, A.CHANT_HEADER));
  // the ring and the gram hashes lie together in both forms
  const ring = v.ring;
  out.set(old.subarray(w.ring, w.ring + 4 * size), ring);
  // the chains, from the ring
  const pos = src.getInt32(A.CS_POS, true);
  const links = v.links;
  const last = new Int32Array(BUCKETS).fill(-1);
  for (let p = Math.max(G - 1, pos - P); p < pos; p++) {
    let h = 0;
    for (let t = p - G + 1; t <= p; t++) h = (Math.imul(h, HASH_BASE) + dst.getUint16(ring + 2 * (t & mask), true)) | 0;
    const b = Math.imul(h, 0x9e3779b1) >>> BUCKET_SHIFT;
    const q = last[b] as number;
    dst.setUint16(links + 2 * (p & mask), q >= 0 && p - q <= P ? p - q : 0, true);
    last[b] = p;
  }
  const heads = v.heads;
  last.forEach((q, b) => dst.setUint16(heads + 2 * b, q >= 0 ? q & 0xffff : 0xffff, true));
  // the periods followed: bits, each run at its period
  const bits = v.following;
  const runs = v.runs;
  const set = (L: number): void => {
    const at = bits + 4 * (L >>> 5);
    dst.setUint32(at, (dst.getUint32(at, true) | (1 << (L & 31))) >>> 0, true);
  };
  let refused = false;
  for (let L = 0; L <= P; L++) {
    const flag = old[w.following + L] as number;
    if (flag === 1 && L !== 0) set(L);
    else if (flag !== 0) refused = true;
  }
  const followed = src.getInt32(A.CS_FOLLOWED, true);
  const seen = new Uint8Array(P + 1);
  for (let j = 0; j < Math.min(Math.max(followed, 0), P); j++) {
    const L = src.getUint16(w.periods + 2 * j, true);
    if (L < 1 || L > P || old[w.following + L] !== 1 || seen[L] === 1) {
      refused = true;
      continue;
    }
    seen[L] = 1;
    dst.setInt32(runs + 4 * (L - 1), src.getInt32(w.runs + 4 * j, true), true);
  }
  if (refused) set(0);
  return out;
}

/**
 * A region saved in snapshot format 11 (`layout.v11.size` bytes: links u16, the gram hashes' low 16 bits
 * after the ring) in today's form: the gram hashes left out (nothing reads them now), each link in
 * `layout.linkBytes` (a link is at most maxPeriod; one longer, which only a corrupt region holds, ends a walk
 * as none does, so it becomes 0), everything else copied as it is. The region goes on with the same hits.
 */
export function regionFrom11(old: Uint8Array, layout: ChantLayout): Uint8Array {
  const v = layout.v11;
  const get = (k: number): number => layout.fields.get(k) as number;
  const size = layout.ringSize;
  const P = layout.maxPeriod;
  const out = new Uint8Array(layout.slotSize);
  const src = new DataView(old.buffer, old.byteOffset, old.byteLength);
  const dst = new DataView(out.buffer);
  out.set(old.subarray(0, A.CHANT_HEADER));
  const links = get(A.CH_OFF_PREV);
  for (let j = 0; j < size; j++) {
    const d = src.getUint16(v.links + 2 * j, true);
    const back = d <= P ? d : 0;
    if (layout.linkBytes === 1) out[links + j] = back;
    else dst.setUint16(links + 2 * j, back, true);
  }
  out.set(old.subarray(v.heads, v.heads + 2 * BUCKETS), get(A.CH_OFF_HEADS));
  out.set(old.subarray(v.runs, v.runs + 4 * P), get(A.CH_OFF_RUNS));
  out.set(old.subarray(v.ring, v.ring + 2 * size), get(A.CH_OFF_RING));
  out.set(old.subarray(v.following, v.following + 4 * ((P >>> 5) + 1)), get(A.CH_OFF_FOLLOW));
  return out;
}

/**
 * A region saved when links were i32 positions (`layout.positionsSize` bytes) in the wide form
 * (`layout.wide.size` bytes, heads i32 and flags u8; `regionFromWide` then makes it today's): each ring
 * slot's link becomes the distance from the position last written there (the largest below the stream's
 * position with that slot) back to the position it held; 0 where there is none, where it points to none
 * (-1) or to more than maxPeriod back (the walk stops there as it stopped before). Everything after the
 * links moves up by what they shrank (2 bytes a slot); the rest is copied as it is.
 */
export function regionFromPositions(old: Uint8Array, layout: ChantLayout): Uint8Array {
  const size = layout.ringSize;
  const out = new Uint8Array(layout.wide.size);
  const at = A.CHANT_HEADER;
  out.set(old.subarray(0, at));
  const src = new DataView(old.buffer, old.byteOffset, old.byteLength);
  const dst = new DataView(out.buffer);
  const pos = src.getInt32(A.CS_POS, true);
  for (let j = 0; j < size; j++) {
    // the last position written at slot j: the largest p < pos with p = j (mod size), grams from gram - 1 on
    const p = pos - 1 - ((((pos - 1 - j) % size) + size) % size);
    const q = src.getInt32(at + 4 * j, true);
    const back = p >= layout.gram - 1 && q >= 0 && p - q >= 1 && p - q <= layout.maxPeriod ? p - q : 0;
    dst.setUint16(at + 2 * j, back, true);
  }
  out.set(old.subarray(at + 4 * size, layout.positionsSize), at + 2 * size);
  return out;
}
