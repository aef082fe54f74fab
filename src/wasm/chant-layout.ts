/**
 * The region a text stream's chanting state takes in linear memory (assembly/chant.ts), and the
 * config-table entry that tells the module its parameters and where each array lies. The parameters are
 * the period search's (`gramPlan`, ring size, drop factor: the same functions the TypeScript twin uses)
 * and the sentence tracker's.
 *
 * ```
 *  region: [slot header | scalars | last stop | sentence ring (CS_*) ]  chunks..shown   (CHANT_HEADER bytes)
 *          links u16[size]  heads i32[256]  runs i32[maxPeriod + 1]
 *          ring u16[size]  grams u16[size]  periods u16[maxPeriod + 1]  following u8[maxPeriod + 1]
 * ```
 * A gram's hash is kept as its low 16 bits (period-search.ts keeps all 32): it only sorts out chain
 * entries before their characters are compared, so the periods followed are the same. A link is the
 * distance back to its bucket's previous position (0: none, as for one past maxPeriod, which ends the walk
 * either way); regions saved before held positions, i32 (`regionFromPositions` turns them into distances).
 * 4,736 bytes with the defaults (maxPeriod 200: a ring of 256; a slot class of as many bytes; 5,248 with
 * links as positions).
 */
import type { ChantingOptions } from '../options/detector-options.js';
import { gramDropFactor, gramPlan, ringSizeFor } from '../text/period-search.js';
import type { ConfigEntry } from './wasm-core.js';
import * as A from './generated/abi.js';

/** Bucket heads of the gram table (as in period-search.ts). */
const BUCKETS = 256;

/** A chanting region's layout: its config entry, and what the host reads of the region itself. */
export interface ChantLayout extends ConfigEntry {
  /** Positions the ring holds (a power of two). */
  readonly ringSize: number;
  /** Byte offset of the ring (u16 units) in the region. */
  readonly ringOff: number;
  /** The region's bytes as saved before links were distances (links as i32 positions). */
  readonly positionsSize: number;
  /** The gram length and the longest period (what turning positions into distances needs). */
  readonly gram: number;
  readonly maxPeriod: number;
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

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
  const periods = o.maxPeriod + 1;
  let off = A.CHANT_HEADER;
  const place = (bytes: number): number => {
    const at = off;
    off += align(bytes, 4);
    return at;
  };
  const links = place(2 * size);
  const heads = place(4 * BUCKETS);
  const runs = place(4 * periods);
  const ring = place(2 * size);
  const grams = place(2 * size);
  const periodsOff = place(2 * periods);
  const following = place(periods);
  const slotSize = align(off, 16);
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
    [A.CH_OFF_GRAMS, grams],
    [A.CH_OFF_PREV, links],
    [A.CH_OFF_HEADS, heads],
    [A.CH_OFF_PERIODS, periodsOff],
    [A.CH_OFF_RUNS, runs],
    [A.CH_OFF_FOLLOW, following],
  ]);
  return { slotSize, fields, semanticThreshold: 0, ringSize: size, ringOff: ring, positionsSize: slotSize + 2 * size, gram: plan.gram, maxPeriod: o.maxPeriod };
}

/**
 * A region saved when links were i32 positions (`layout.positionsSize` bytes) in today's form: each ring
 * slot's link becomes the distance from the position last written there (the largest below the stream's
 * position with that slot) back to the position it held; 0 where there is none, where it points to none
 * (-1) or to more than maxPeriod back (the walk stops there as it stopped before). Everything after the
 * links moves up by what they shrank (2 bytes a slot); the rest is copied as it is.
 */
export function regionFromPositions(old: Uint8Array, layout: ChantLayout): Uint8Array {
  const size = layout.ringSize;
  const out = new Uint8Array(layout.slotSize);
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
