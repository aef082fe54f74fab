/**
 * The args summaries (text/args-summary.ts) of a session's newest calls, by call index: one byte arena
 * and a table, so a session holds a few objects whatever its calls, and nothing of its callers'.
 *
 * ```
 *   table, per slot (index % slots):  index | offset | length
 *   arena, used as a ring (a bip buffer: a summary is never split, the room at the end left unused when
 *   the next one does not fit there):
 *     [ newer summaries | free | older summaries ... end | free ]     or    [ free | summaries ... end | free ]
 *   a put goes at `end`, else at 0, wherever it overlaps no summary held; else the arena is compacted
 * ```
 *
 * The arena holds its summaries and about a quarter more (at least room for the next one), so a session
 * of summaries of the same size writes round the ring without moving any; it was twice its summaries
 * before (an arena compacted whenever it filled up), which made similar args' arena ~17 KB of a session's
 * ~35 KB with the RSS bench's 491 B args (768 B summaries). While the ring fills, a compaction makes the
 * arena for the summaries it will hold (at the mean size of those held so far), so a session's arena is
 * made about once then, not once every few puts.
 *
 * A put() replaces the summary `slots` calls older; the others stay where they are (or move together in a
 * compaction), so a caller that marks before a put and rolls back after it only has to forget the put,
 * as long as it asks for at most `slots - 1` calls before the one put.
 */
import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import { isSummary } from '../text/summary-check.js';
import { summaryFromV1 } from '../text/summary-v1.js';
import { giveArena, takeArena } from './spare-arenas.js';
import { giveDoubles, takeDoubles } from './word-blocks.js';

/** The arena of a ring that holds nothing yet (shared: never written, a put makes one). */
const NO_ARENA = new Uint8Array(0);

/** Smallest arena a compaction makes: small summaries share one small block. */
const MIN_ARENA_BYTES = 256;

/** The arena made for `live` bytes of summaries and `n` more: a quarter more than both, and at least `n` spare. */
export function roomFor(live: number, n: number): number {
  return Math.max(MIN_ARENA_BYTES, live + n + Math.max(n, (live + n) >> 2));
}

/** The newest calls' args summaries of one session. */
export class SummaryRing {
  private arena = NO_ARENA;
  /**
   * Per slot, from `tb`: the call index held (-1: none), where its summary starts, its length (one array,
   * not three: fewer objects per session); an array of its own, or a block of the thread's shared chunks
   * (word-blocks.ts) until {@link releaseTable}.
   */
  private table: Float64Array;
  private tb = 0;
  private end = 0;
  /** Whether arenas come from, and go back to, the thread's spares (spare-arenas.ts): a ring made `shared`. */
  private readonly spares: boolean;

  /**
   * `shared`: the table in a block of the thread's chunks, which the owner gives back ({@link releaseTable}),
   * and arenas taken from the thread's spares and left there when let go.
   */
  constructor(
    readonly slots: number,
    shared = false,
  ) {
    this.spares = shared;
    if (shared) {
      const block = takeDoubles(3 * slots);
      this.table = block.words;
      this.tb = block.base;
    } else this.table = new Float64Array(3 * slots);
    for (let s = 0; s < slots; s++) this.table[this.tb + 3 * s] = -1;
  }

  /**
   * Gives the shared block of a ring made with `shared` back to the thread (its session is disposed): the
   * table moves to an array of its own first, so the ring reads as before. Its owner calls it once.
   */
  releaseTable(): void {
    const own = this.table.slice(this.tb, this.tb + 3 * this.slots);
    giveDoubles(3 * this.slots, this.table, this.tb);
    this.table = own;
    this.tb = 0;
  }

  /** The arena the summaries lie in (read at `at(index)`); a put may replace it. */
  get bytes(): Uint8Array {
    return this.arena;
  }

  /** Whether call `index`'s summary is held. */
  has(index: number): boolean {
    return index >= 0 && this.table[this.tb + 3 * (index % this.slots)] === index;
  }

  /** Where call `index`'s summary starts in `bytes` (a held one). */
  at(index: number): number {
    return this.table[this.tb + 3 * (index % this.slots) + 1] as number;
  }

  /** Keeps `summary` as call `index`'s, replacing the summary held in its slot. */
  put(index: number, summary: Uint8Array): void {
    this.putFrom(index, summary, 0, summary.length);
  }

  /** Keeps the `n` bytes at `from` of `src` as call `index`'s summary, replacing the summary held in its slot. */
  putFrom(index: number, src: Uint8Array, from: number, n: number): void {
    const s = index % this.slots;
    this.table[this.tb + 3 * s] = -1;
    const at = this.fits(this.end, n) ? this.end : !this.oversized(n) && this.fits(0, n) ? 0 : this.makeRoom(n);
    const arena = this.arena;
    // a loop for a few bytes; past that, a view and a native copy (~50 ns whatever the size, where the loop takes ~1.5 ns a byte)
    if (n <= 16) for (let i = 0; i < n; i++) arena[at + i] = src[from + i] as number;
    else arena.set(from === 0 && n === src.length ? src : src.subarray(from, from + n), at);
    this.table[this.tb + 3 * s] = index;
    this.table[this.tb + 3 * s + 1] = at;
    this.table[this.tb + 3 * s + 2] = n;
    this.end = at + n;
  }

  /** Whether the arena is more than twice what a compaction would make for its summaries and `n` more (asked once a round). */
  private oversized(n: number): boolean {
    let live = 0;
    let held = 1;
    for (let s = 0; s < this.slots; s++) {
      if (this.table[this.tb + 3 * s] === -1) continue;
      live += this.table[this.tb + 3 * s + 2] as number;
      held++;
    }
    return 2 * this.roomAhead(live, held, n) < this.arena.length;
  }

  /**
   * The arena a compaction makes for `live` bytes of `held - 1` summaries and `n` more: while the ring is
   * not yet full, sized for the summaries it will hold, at the mean size of those it holds and the one put,
   * so a session's arena is made about once while its window fills (it was made anew ~4 times a session on
   * the traces, 6,097 arenas for 1,464 sessions: most of a put's cost).
   */
  private roomAhead(live: number, held: number, n: number): number {
    return roomFor(held >= this.slots ? live : Math.ceil(((live + n) * this.slots) / held) - n, n);
  }

  /** Whether `n` bytes at `at` lie inside the arena and overlap no summary held. */
  private fits(at: number, n: number): boolean {
    if (at + n > this.arena.length) return false;
    for (let s = 0; s < this.slots; s++) {
      if (this.table[this.tb + 3 * s] === -1) continue;
      const o = this.table[this.tb + 3 * s + 1] as number;
      if (o < at + n && at < o + (this.table[this.tb + 3 * s + 2] as number)) return false;
    }
    return true;
  }

  /** Forgets call `index`'s summary, if held (its bytes stay until a compaction). */
  drop(index: number): void {
    if (this.has(index)) this.table[this.tb + 3 * (index % this.slots)] = -1;
  }

  /**
   * Moves the held summaries to the arena's start (in arena order) and returns where `n` more bytes go,
   * after them. The arena is made anew at `roomFor(live, n)` bytes when it is smaller than that or more
   * than twice it (so it follows the session's summaries down as well as up); the room a compaction
   * leaves is at least `n` and a quarter of what it moved, so its copies cost at most about four bytes per
   * byte put, and none while summaries keep their size. At most about `1.5 * slots * SUMMARY_MAX_BYTES`.
   */
  private makeRoom(n: number): number {
    const order: number[] = [];
    let live = 0;
    for (let s = 0; s < this.slots; s++) {
      if (this.table[this.tb + 3 * s] === -1) continue;
      order.push(s);
      live += this.table[this.tb + 3 * s + 2] as number;
    }
    order.sort((x, y) => (this.table[this.tb + 3 * x + 1] as number) - (this.table[this.tb + 3 * y + 1] as number));
    const size = this.roomAhead(live, order.length + 1, n);
    const target = size > this.arena.length || 2 * size < this.arena.length ? (this.spares ? takeArena(size) : new Uint8Array(size)) : this.arena;
    let at = 0;
    for (const s of order) {
      const from = this.table[this.tb + 3 * s + 1] as number;
      const len = this.table[this.tb + 3 * s + 2] as number;
      if (target === this.arena) target.copyWithin(at, from, from + len);
      else target.set(this.arena.subarray(from, from + len), at);
      this.table[this.tb + 3 * s + 1] = at;
      at += len;
    }
    if (this.spares && target !== this.arena) giveArena(this.arena);
    this.arena = target;
    this.end = at;
    return at;
  }

  /** Forgets every summary (the arena is let go: to the thread's spares, for a ring made `shared`). */
  reset(): void {
    for (let s = 0; s < this.slots; s++) this.table[this.tb + 3 * s] = -1;
    if (this.spares) giveArena(this.arena);
    this.arena = NO_ARENA;
    this.end = 0;
  }

  /** Writes the summaries of calls [from, to) that are held, for a snapshot. */
  save(w: ByteWriter, from: number, to: number): void {
    let count = 0;
    for (let i = from; i < to; i++) if (this.has(i)) count++;
    w.u32(count);
    for (let i = from; i < to; i++) {
      if (!this.has(i)) continue;
      const s = i % this.slots;
      w.f64(i);
      const o = this.table[this.tb + 3 * s + 1] as number;
      w.bytes(this.arena.subarray(o, o + (this.table[this.tb + 3 * s + 2] as number)));
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
