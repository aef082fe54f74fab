/**
 * The args summaries (text/args-summary.ts) of a session's newest calls, by call index: each in a block of
 * its own (summary-blocks.ts), and a table, so a session holds a few objects whatever its calls, and
 * nothing of its callers'.
 *
 * ```
 *   table, per slot (index % slots):  index | where        (where: its block's place, a block of the ring's
 *                                                              SummaryBlocks, and its length, in one double)
 * ```
 *
 * `where` is (chunk id * 2^20 + offset / 16) * 8192 + length: offsets are multiples of 16 (every block
 * size is) below 2^24, lengths at most SUMMARY_MAX_BYTES (4,096), so a chunk id below 2^20 keeps it an
 * exact double (a thread of a million summary chunks would hold tens of millions of summaries). Until
 * branch mem38 the place and the length took a double each (264 B a session of the default window, 176 now).
 *
 * A put() gives back the block of the summary `slots` calls older and takes one of the new summary's size
 * class; a drop() gives back the dropped one's. Rings made for the thread's sessions (`shared`) take their
 * blocks from the thread's {@link sharedSummaryBlocks}, others from blocks of their own. Until branch
 * mem6k a ring kept one arena written round as a bip buffer and compacted, which with spares and slack was
 * about twice its summaries (median 3,183 B for 1,624 B after 100 real calls).
 *
 * A summary over PACK_OVER (768) bytes is kept packed (summary-lz.ts) when that is smaller: its block holds
 * its length (u16) and the packed bytes, and its table length is 4,096 + the block's bytes used (a plain
 * one's is at most 4,096). Reading one (bytesOf) unpacks it into one of two buffers of the thread's (lanes:
 * a comparison reads two summaries), where at() then says it starts. Snapshots hold the summaries as put.
 * Until branch mem39 every summary was kept as put (summary chunks 2,454 B a session after 100 real calls, 2,136 now).
 *
 * A put() replaces the summary `slots` calls older only, so a caller that marks before a put and rolls
 * back after it only has to forget the put (drop), as long as it asks for at most `slots - 1` calls before
 * the one put.
 */
import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { SUMMARY_MAX_BYTES } from '../text/args-summary.js';
import { isSummary } from '../text/summary-check.js';
import { summaryFromV1 } from '../text/summary-v1.js';
import { OFFSET, SummaryBlocks, offsetOf, sharedSummaryBlocks } from './summary-blocks.js';
import { PACK_OVER, packSummary, unpackSummary } from './summary-lz.js';
import { giveDoubles, takeDoubles } from './word-blocks.js';

/** Doubles a table slot takes: the call index, its block's place and length (see pack). */
const SLOT = 2;
/** Lengths' room in a packed double (a summary is at most 4,096 bytes). */
const LENGTHS = 8192;

/** A block's place and a summary's length in one double. */
function pack(place: number, n: number): number {
  const chunk = Math.floor(place / OFFSET);
  if (chunk >= 2 ** 20 || n >= LENGTHS || place % 16 !== 0) throw new RangeError(`loopwatch: summary chunk ${chunk} or length ${n} (or an offset not of whole 16 bytes) past what a table slot holds`);
  return (chunk * 2 ** 20 + (place % OFFSET) / 16) * LENGTHS + n;
}

/** The place a packed double holds. */
function placeIn(v: number): number {
  const u = Math.floor(v / LENGTHS);
  return Math.floor(u / 2 ** 20) * OFFSET + (u % 2 ** 20) * 16;
}

/** The length code a packed double holds: a summary's length (at most SUMMARY_MAX_BYTES), or PACKED + its packed block's bytes. */
function lengthIn(v: number): number {
  return v % LENGTHS;
}

/** Length codes above this are packed summaries': the code less PACKED is the bytes their block uses. */
const PACKED = SUMMARY_MAX_BYTES;

/** The bytes a length code's block uses. */
function usedBytes(code: number): number {
  return code > PACKED ? code - PACKED : code;
}

/** Where packSummary writes (the thread's). */
const packOut = new Uint8Array(SUMMARY_MAX_BYTES);
/** The thread's buffers packed summaries are read into, by lane. */
const lanes = [new Uint8Array(SUMMARY_MAX_BYTES), new Uint8Array(SUMMARY_MAX_BYTES)] as const;

/** The table of a ring whose shared block was given back (see SummaryRing.dropTable): none. */
const NO_TABLE = new Float64Array(0);

/** The newest calls' args summaries of one session. */
export class SummaryRing {
  /** Where the summaries' blocks come from: the thread's (a ring made `shared`, until {@link dropTable}) or the ring's own. */
  private blocks: SummaryBlocks;
  /**
   * Per slot, from `tb`: the call index held (-1: none), its block's place and its length (packed: see
   * pack); an array of its own, or a block of the thread's shared chunks (word-blocks.ts) until {@link dropTable}.
   */
  private table: Float64Array;
  private tb = 0;

  /**
   * `shared`: the table in a block of the thread's chunks and the summaries in the thread's summary blocks,
   * which the owner gives back ({@link dropTable}).
   */
  constructor(
    readonly slots: number,
    shared = false,
  ) {
    if (shared) {
      const block = takeDoubles(SLOT * slots);
      this.table = block.words;
      this.tb = block.base;
      this.blocks = sharedSummaryBlocks();
    } else {
      this.table = new Float64Array(SLOT * slots);
      this.blocks = new SummaryBlocks();
    }
    for (let s = 0; s < slots; s++) this.table[this.tb + SLOT * s] = -1;
  }

  /**
   * Gives the shared table block and the held summaries' blocks of a ring made with `shared` back to the
   * thread (its session is disposed), as they are: nothing reads a disposed session (LoopDetector refuses
   * every read with a DisposedError), so nothing is copied first; the ring holds no table afterwards. Its
   * owner calls it once.
   */
  dropTable(): void {
    const t = this.table;
    const tb = this.tb;
    for (let s = 0; s < this.slots; s++) {
      if (t[tb + SLOT * s] === -1) continue;
      const v = t[tb + SLOT * s + 1] as number;
      this.blocks.give(placeIn(v), Math.max(1, usedBytes(lengthIn(v))));
    }
    giveDoubles(SLOT * this.slots, t, tb);
    this.table = NO_TABLE;
    this.tb = 0;
  }

  /**
   * The bytes call `index`'s summary lies in (a held one), read at `at(index)`: its block's chunk, or for a
   * packed one the thread's buffer of `lane` (0 or 1) it is unpacked into, valid until that lane is read
   * into again (by any ring).
   */
  bytesOf(index: number, lane: 0 | 1 = 0): Uint8Array {
    const v = this.table[this.tb + SLOT * (index % this.slots) + 1] as number;
    const chunk = this.blocks.chunkOf(placeIn(v));
    const code = lengthIn(v);
    if (code <= PACKED) return chunk;
    const at = offsetOf(placeIn(v));
    const out = lanes[lane];
    unpackSummary(chunk, at + 2, code - PACKED - 2, out);
    return out;
  }

  /** Whether call `index`'s summary is held. */
  has(index: number): boolean {
    return index >= 0 && this.table[this.tb + SLOT * (index % this.slots)] === index;
  }

  /** Where call `index`'s summary starts in `bytesOf(index)` (a held one): 0 for a packed one, read into a lane. */
  at(index: number): number {
    const v = this.table[this.tb + SLOT * (index % this.slots) + 1] as number;
    return lengthIn(v) > PACKED ? 0 : offsetOf(placeIn(v));
  }

  /** The length of call `index`'s summary (a held one), as put. */
  lengthOf(index: number): number {
    const v = this.table[this.tb + SLOT * (index % this.slots) + 1] as number;
    const code = lengthIn(v);
    if (code <= PACKED) return code;
    const chunk = this.blocks.chunkOf(placeIn(v));
    const at = offsetOf(placeIn(v));
    return (chunk[at] as number) | ((chunk[at + 1] as number) << 8);
  }

  /** Bytes of the held summaries, as put (for measurements and tests). */
  heldBytes(): number {
    let n = 0;
    for (let s = 0; s < this.slots; s++) if (this.table[this.tb + SLOT * s] !== -1) n += this.lengthOf(this.table[this.tb + SLOT * s] as number);
    return n;
  }

  /** Bytes of the held summaries' blocks used (packed ones packed: for measurements and tests). */
  usedBytes(): number {
    let n = 0;
    for (let s = 0; s < this.slots; s++) if (this.table[this.tb + SLOT * s] !== -1) n += usedBytes(lengthIn(this.table[this.tb + SLOT * s + 1] as number));
    return n;
  }

  /** Keeps `summary` as call `index`'s, replacing the summary held in its slot. */
  put(index: number, summary: Uint8Array): void {
    this.putFrom(index, summary, 0, summary.length);
  }

  /** Keeps the `n` bytes at `from` of `src` as call `index`'s summary, replacing the summary held in its slot. */
  putFrom(index: number, src: Uint8Array, from: number, n: number): void {
    if (n > PACK_OVER && n <= SUMMARY_MAX_BYTES) {
      const m = packSummary(src, from, n, packOut);
      // kept packed only when its block (length and packed bytes) is smaller
      if (m >= 0 && m + 2 < n) {
        this.putPacked(index, n, m);
        return;
      }
    }
    const t = this.tb + SLOT * (index % this.slots);
    const blocks = this.blocks;
    // the new block first: `src` is never a block of this ring's, but a block given back may be taken at once
    const place = blocks.take(Math.max(1, n));
    const chunk = blocks.chunkOf(place);
    const at = offsetOf(place);
    // a loop for a few bytes; past that, a view and a native copy (~50 ns whatever the size, where the loop takes ~1.5 ns a byte)
    if (n <= 16) for (let i = 0; i < n; i++) chunk[at + i] = src[from + i] as number;
    else chunk.set(from === 0 && n === src.length ? src : src.subarray(from, from + n), at);
    this.giveSlot(t);
    this.table[t] = index;
    this.table[t + 1] = pack(place, n);
  }

  /** Keeps the `m` bytes packSummary wrote in `packOut` (a summary of `n` bytes) as call `index`'s. */
  private putPacked(index: number, n: number, m: number): void {
    const t = this.tb + SLOT * (index % this.slots);
    const blocks = this.blocks;
    const place = blocks.take(m + 2);
    const chunk = blocks.chunkOf(place);
    const at = offsetOf(place);
    chunk[at] = n & 0xff;
    chunk[at + 1] = n >>> 8;
    chunk.set(packOut.subarray(0, m), at + 2);
    this.giveSlot(t);
    this.table[t] = index;
    this.table[t + 1] = pack(place, PACKED + m + 2);
  }

  /** Gives back the block of the summary held at table entry `t`, if one is, and marks the entry empty. */
  private giveSlot(t: number): void {
    if (this.table[t] === -1) return;
    const v = this.table[t + 1] as number;
    this.blocks.give(placeIn(v), Math.max(1, usedBytes(lengthIn(v))));
    this.table[t] = -1;
  }

  /** Forgets call `index`'s summary, if held (its block is given back). */
  drop(index: number): void {
    if (this.has(index)) this.giveSlot(this.tb + SLOT * (index % this.slots));
  }

  /** Forgets every summary (their blocks are given back). */
  reset(): void {
    for (let s = 0; s < this.slots; s++) this.giveSlot(this.tb + SLOT * s);
  }

  /** Writes the summaries of calls [from, to) that are held, for a snapshot. */
  save(w: ByteWriter, from: number, to: number): void {
    let count = 0;
    for (let i = from; i < to; i++) if (this.has(i)) count++;
    w.u32(count);
    for (let i = from; i < to; i++) {
      if (!this.has(i)) continue;
      w.f64(i);
      const o = this.at(i);
      w.bytes(this.bytesOf(i).subarray(o, o + this.lengthOf(i)));
    }
  }

  /** Reads what save() wrote (after a reset); `firstForm`: summaries in their first form (text/summary-v1.ts), turned into today's. */
  load(r: ByteReader, firstForm = false): void {
    this.reset();
    const count = r.u32();
    for (let k = 0; k < count; k++) {
      const i = r.f64();
      if (!Number.isSafeInteger(i) || i < 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (an args summary of no call)');
      const read = r.view();
      const summary = firstForm ? summaryFromV1(read) : read;
      if (summary === null || !isSummary(summary)) throw new SnapshotError('loopwatch: the snapshot is corrupt (an args summary that is not one)');
      this.put(i, summary);
    }
  }
}
