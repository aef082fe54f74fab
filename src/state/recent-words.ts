/**
 * The ring words of a session's newest calls (tool, signature, outcome, masked outcome and outcome flags,
 * the words the module's rings hold), kept on the host as each call's output is read, for what reads them
 * after a call is recorded: similar args (its window) and the policy's failing-again rule (the calls within
 * FAILING_WINDOW, src/policy/failing-again.ts). Neither reads the module's rings: in a batch they have moved
 * on to the session's later calls by then, which made every call of a session with either on take a crossing
 * of its own (similar args: 27,068 crossings for the traces' 28,505 calls, against 446 without it).
 *
 * ```
 *   words, per slot (index % slots):  sig | tool | outcome | masked | flags
 * ```
 * Only the newest `slots` calls are held; a reader asks about no other (`oldest` bounds it). One typed
 * array, whatever the calls.
 */
import { type HistoryReader, Ring, type RingId } from './call-history.js';
import type { Rewindable } from './rewindable.js';

/** Words per slot: one per ring read (Ring.SIG ... Ring.MASKED, at their ids), then the flags. */
const W = 5;
const FLAGS = 4;

/** The newest calls' ring words of one session, read as a {@link HistoryReader}. */
export class RecentWords implements HistoryReader, Rewindable {
  /** The slots' words, then (one slot more) the words the last push() after mark() replaced. */
  private readonly words: Uint32Array;
  private n = 0;
  /** The count before the push() rollback() undoes (-2: mark() was called, the next push is kept; -1: none). */
  private undoN = -1;

  constructor(readonly slots: number) {
    this.words = new Uint32Array(W * (slots + 1));
  }

  get count(): number {
    return this.n;
  }

  /** The oldest call held (no reader asks about an older one). */
  get oldest(): number {
    return this.n > this.slots ? this.n - this.slots : 0;
  }

  /** Records call `count`'s words (`flags` as the module's outcome-flags byte). */
  push(tool: number, sig: number, outcome: number, masked: number, flags: number): void {
    const p = W * (this.n % this.slots);
    const w = this.words;
    if (this.undoN === -2) {
      w.copyWithin(W * this.slots, p, p + W);
      this.undoN = this.n;
    }
    w[p + Ring.SIG] = sig >>> 0;
    w[p + Ring.TOOL] = tool >>> 0;
    w[p + Ring.OUTCOME] = outcome >>> 0;
    w[p + Ring.MASKED] = masked >>> 0;
    w[p + FLAGS] = flags & 0xff;
    this.n++;
  }

  same(ring: RingId, i: number, j: number): boolean {
    if (ring > Ring.MASKED) throw new RangeError(`loopwatch: ring ${ring} is not kept on the host`);
    const w = this.words;
    return w[W * (i % this.slots) + ring] === w[W * (j % this.slots) + ring];
  }

  flagsOf(index: number): number {
    return this.words[W * (index % this.slots) + FLAGS] as number;
  }

  /**
   * Takes the newest `slots` calls' words from a reader of the module's rings (after a snapshot is restored
   * into the slot): `word(ring, i)` gives call i's word of a ring.
   */
  fill(count: number, word: (ring: RingId, index: number) => number, flagsOf: (index: number) => number): void {
    this.reset();
    const from = count > this.slots ? count - this.slots : 0;
    this.n = from;
    for (let i = from; i < count; i++) this.push(word(Ring.TOOL, i), word(Ring.SIG, i), word(Ring.OUTCOME, i), word(Ring.MASKED, i), flagsOf(i));
  }

  /** Remembers what the next push() changes (see Rewindable). */
  mark(): void {
    this.undoN = -2;
  }

  /** Undoes the push() made since mark(). */
  rollback(): void {
    const n = this.undoN;
    this.undoN = -1;
    if (n < 0) return;
    const p = W * (n % this.slots);
    this.words.copyWithin(p, W * this.slots, W * this.slots + W);
    this.n = n;
  }

  reset(): void {
    this.words.fill(0);
    this.n = 0;
    this.undoN = -1;
  }
}
