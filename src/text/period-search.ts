/**
 * The period search behind chanting: a stream of characters, and at each one the smallest period `L`
 * (up to `maxPeriod`) whose run (characters in a row equal to the one `L` before them) satisfies
 * `run >= (reps(L) - 1) L` and `run + L >= minLength`, i.e. a chunk of `L` characters repeated `reps(L)`
 * times back to back over `minLength` or more characters; `reps(L)` is `threshold`, or `longThreshold` for
 * chunks of `longChunk` characters or more (a long sentence said three times over is as sure a sign as a
 * short one said ten times).
 *
 * ```
 *   text:   . . x  A B C A B C A B C A B C      (L = 3)
 *   run[3]: 0 0 0  0 0 0 1 2 3 4 5 6 7 8 9      span = run + L = 12, repetitions = 4
 * ```
 *
 * Comparing every period at every character costs O(maxPeriod) per character. Instead, a hit needs a run
 * of at least `least` = min over L of max((threshold - 1) L, minLength - L) (90 with the defaults), so
 * only long runs are followed:
 * - each position's last `G` characters (G = 8 with the defaults) are hashed into a chained table;
 * - every `stride` characters (an anchor) the chain is walked: an earlier position with the same `G`
 *   characters, `L` back, starts following period `L`, its exact run counted back from here;
 * - a followed period grows by one per matching character and is dropped at the first mismatch.
 * A run of `least` characters always spans an anchor with `G` matching characters behind it
 * (`G + stride - 1 <= least`), so no period that can hit is missed, and its run is exact: the answers are
 * those of comparing every period (a property test holds both to it). Prose rarely repeats `G` characters
 * within `maxPeriod`, so a character costs a hash update and, every `stride` characters, a short walk.
 *
 * Positions are int32 for fast ring arithmetic; `rebase()` moves them back by a multiple of the ring
 * size before they overflow.
 */

import { SnapshotError } from '../errors.js';
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';

/** Chain heads of the gram table. */
const BUCKETS = 256;
/** Multiplier of the rolling gram hash. */
const HASH_BASE = 0x01000193;

/** Repetitions that make a chunk of `L` characters chanting. */
export function repetitionsFor(L: number, threshold: number, longChunk: number, longThreshold: number): number {
  return L >= longChunk ? longThreshold : threshold;
}

/** Gram length and anchor stride for the options: `G + stride - 1 <= least`, G at most 8. */
export function gramPlan(maxPeriod: number, threshold: number, minLength: number, longChunk = Infinity, longThreshold = threshold): { gram: number; stride: number; least: number } {
  let least = Infinity;
  for (let L = 1; L <= maxPeriod; L++) least = Math.min(least, Math.max((repetitionsFor(L, threshold, longChunk, longThreshold) - 1) * L, minLength - L));
  least = Math.max(1, least);
  if (least >= 15) return { gram: 8, stride: 8, least };
  const gram = Math.max(1, Math.ceil(least / 2));
  return { gram, stride: least - gram + 1, least };
}

/** Positions a search's ring holds: a power of two above the longest period, a gram and a stride. */
export function ringSizeFor(maxPeriod: number, gram: number, stride: number): number {
  return 1 << Math.ceil(Math.log2(maxPeriod + gram + stride + 1));
}

/** B^(G-1) for grams of G characters: what the rolling hash drops the leaving character by. */
export function gramDropFactor(gram: number): number {
  let f = 1;
  for (let k = 1; k < gram; k++) f = Math.imul(f, HASH_BASE);
  return f;
}

/** The streaming period search of one session's text. */
export class PeriodSearch {
  /** Absolute position of the next character. */
  pos = 0;
  private readonly G: number;
  private readonly stride: number;
  private readonly need: number;
  private readonly longNeed: number;
  private readonly size: number;
  private readonly mask: number;
  /** The last `size` characters, by position & mask. */
  private readonly ring: Uint16Array;
  /** Hash of the G characters ending at each position. */
  private readonly gramAt: Int32Array;
  /** The previous position in the same bucket (negative: none). */
  private readonly prevInBucket: Int32Array;
  private readonly heads = new Int32Array(BUCKETS).fill(-1);
  /** B^(G-1), to drop the character leaving the rolling hash. */
  private readonly dropFactor: number;
  private gram = 0;
  private untilAnchor: number;
  /** Followed periods and their runs; `following[L]` is 1 while L is followed. */
  private readonly periods: Uint16Array;
  private readonly runs: Int32Array;
  private readonly following: Uint8Array;
  private followed = 0;
  /** The run of the last hit. */
  private hitRun = 0;

  constructor(
    private readonly maxPeriod: number,
    threshold: number,
    private readonly minLength: number,
    private readonly longChunk = Infinity,
    longThreshold = threshold,
  ) {
    const plan = gramPlan(maxPeriod, threshold, minLength, longChunk, longThreshold);
    this.G = plan.gram;
    this.stride = plan.stride;
    this.untilAnchor = plan.stride;
    this.need = threshold - 1;
    this.longNeed = longThreshold - 1;
    this.size = ringSizeFor(maxPeriod, this.G, this.stride);
    this.mask = this.size - 1;
    this.ring = new Uint16Array(this.size);
    this.gramAt = new Int32Array(this.size);
    this.prevInBucket = new Int32Array(this.size);
    this.dropFactor = gramDropFactor(this.G);
    this.periods = new Uint16Array(maxPeriod + 1);
    this.runs = new Int32Array(maxPeriod + 1);
    this.following = new Uint8Array(maxPeriod + 1);
  }

  /** Appends a character (a UTF-16 code unit); returns the smallest period that hits at it, or 0. */
  push(ch: number): number {
    const mask = this.mask;
    const i = this.pos;
    this.ring[i & mask] = ch;
    this.pos++;
    let hit = 0;
    // follow the periods already followed
    let w = 0;
    for (let k = 0; k < this.followed; k++) {
      const L = this.periods[k] as number;
      if (this.ring[(i - L) & mask] !== ch) {
        this.following[L] = 0;
        continue;
      }
      const r = (this.runs[k] as number) + 1;
      this.periods[w] = L;
      this.runs[w] = r;
      w++;
      if ((hit === 0 || L < hit) && this.hits(L, r)) {
        hit = L;
        this.hitRun = r;
      }
    }
    this.followed = w;
    // the gram ending here, into the table; at an anchor, start following new periods
    const G = this.G;
    const leaving = i >= G ? (this.ring[(i - G) & mask] as number) : 0;
    this.gram = (Math.imul((this.gram - Math.imul(leaving, this.dropFactor)) | 0, HASH_BASE) + ch) | 0;
    if (i < G - 1) return hit;
    const h = this.gram;
    this.gramAt[i & mask] = h;
    const b = Math.imul(h, 0x9e3779b1) >>> 24;
    let q = this.heads[b] as number;
    this.heads[b] = i;
    this.prevInBucket[i & mask] = q;
    if (--this.untilAnchor > 0) return hit;
    this.untilAnchor = this.stride;
    while (q >= 0 && i - q <= this.maxPeriod) {
      const L = i - q;
      if (this.gramAt[q & mask] === h && this.following[L] === 0 && this.sameGram(q, i)) {
        const r = this.runBack(i, L);
        this.following[L] = 1;
        this.periods[this.followed] = L;
        this.runs[this.followed] = r;
        this.followed++;
        if ((hit === 0 || L < hit) && this.hits(L, r)) {
          hit = L;
          this.hitRun = r;
        }
      }
      q = this.prevInBucket[q & mask] as number;
    }
    return hit;
  }

  private hits(L: number, r: number): boolean {
    return r >= (L >= this.longChunk ? this.longNeed : this.need) * L && r + L >= this.minLength;
  }

  /** Whether the G characters ending at q equal those ending at i. */
  private sameGram(q: number, i: number): boolean {
    const mask = this.mask;
    for (let k = 0; k < this.G; k++) if (this.ring[(q - k) & mask] !== this.ring[(i - k) & mask]) return false;
    return true;
  }

  /** The run of period L ending at i (at least G; newly found runs are shorter than G + stride). */
  private runBack(i: number, L: number): number {
    const mask = this.mask;
    let r = this.G;
    while (i - r - L >= 0 && r + L < this.size && this.ring[(i - r) & mask] === this.ring[(i - r - L) & mask]) r++;
    return r;
  }

  /** The run of the period the last hit reported. */
  get lastHitRun(): number {
    return this.hitRun;
  }

  /** The character at a position still in the ring. */
  charAt(p: number): number {
    return this.ring[p & this.mask] as number;
  }

  /**
   * Moves every position back by a multiple of the ring size (positions too old to matter go negative)
   * and returns the shift, which the caller applies to the positions it keeps.
   */
  rebase(): number {
    const shift = Math.floor((this.pos - 2 * this.size) / this.size) * this.size;
    if (shift <= 0) return 0;
    const move = (a: Int32Array): void => {
      for (let k = 0; k < a.length; k++) a[k] = (a[k] as number) < 0 ? -1 : Math.max((a[k] as number) - shift, -1);
    };
    move(this.heads);
    move(this.prevInBucket);
    this.pos -= shift;
    return shift;
  }

  /** Writes the whole search state for a snapshot. */
  save(w: ByteWriter): void {
    w.i32(this.pos);
    w.i32(this.gram);
    w.u32(this.untilAnchor);
    w.i32(this.hitRun);
    w.u32(this.followed);
    for (let k = 0; k < this.followed; k++) {
      w.u32(this.periods[k] as number);
      w.i32(this.runs[k] as number);
    }
    w.view(this.ring);
    w.view(this.gramAt);
    w.view(this.prevInBucket);
    w.view(this.heads);
  }

  /** Reads what save() wrote (into a search made with the same options). */
  load(r: ByteReader): void {
    this.reset();
    this.pos = r.i32();
    this.gram = r.i32();
    this.untilAnchor = r.u32();
    this.hitRun = r.i32();
    if (this.pos < 0 || this.untilAnchor < 1 || this.untilAnchor > this.stride) throw new SnapshotError('loopwatch: the snapshot is corrupt (text stream state)');
    this.followed = r.count(this.maxPeriod, 'followed periods');
    for (let k = 0; k < this.followed; k++) {
      const L = r.u32();
      if (L < 1 || L > this.maxPeriod || this.following[L] === 1) throw new SnapshotError('loopwatch: the snapshot is corrupt (a followed period)');
      this.periods[k] = L;
      this.runs[k] = r.i32();
      this.following[L] = 1;
    }
    r.into(this.ring);
    r.into(this.gramAt);
    r.into(this.prevInBucket);
    r.into(this.heads);
  }

  /** Forgets the stream. */
  reset(): void {
    this.pos = 0;
    this.gram = 0;
    this.heads.fill(-1);
    this.following.fill(0);
    this.followed = 0;
    this.untilAnchor = this.stride;
  }
}
