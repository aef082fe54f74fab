/**
 * The ring words of a session's newest calls (tool, signature, outcome, masked outcome and outcome flags,
 * the words the module's rings hold), kept on the host as each call's output is read, for what reads them
 * after a call is recorded: similar args (its window: every word) and the policy's failing-again rule (the
 * calls within FAILING_WINDOW: signatures and outcomes only, src/policy/failing-again.ts). Neither reads the
 * module's rings: in a batch they have moved on to the session's later calls by then, which made every call
 * of a session with either on take a crossing of its own (similar args: 27,068 crossings for the traces'
 * 28,505 calls, against 446 without it).
 *
 * ```
 *   words: short part, per slot (index % slots):  tool | masked | flags        the newest `slots` calls
 *          long part, per slot (index % reach):   sig | outcome                the newest `reach` calls
 *          (each part one slot more: the words the last push() after mark() replaced)
 * ```
 * A reader asks about no call older than `oldest` (the long part's), and about tools, masked outcomes and
 * flags of the newest `slots` calls only (similar args' window). One block of words, whatever the calls.
 */
import { type HistoryReader, Ring, type RingId } from './call-history.js';
import type { Rewindable } from './rewindable.js';
import { giveWords, takeWords } from './word-blocks.js';

/** Words per slot of the short part (tool, masked outcome, flags) and of the long part (signature, outcome). */
const SHORT = 3;
const LONG = 2;

/** Where each ring's word lies in its part's slot (-1: not kept on the host). */
const SHORT_AT: readonly number[] = [-1, 0, -1, 1, -1];
const LONG_AT: readonly number[] = [0, -1, 1, -1, -1];

/** The words of a ring whose shared block was given back (see RecentWords.dropWords): none. */
const NO_WORDS = new Uint32Array(0);

/** The newest calls' ring words of one session, read as a {@link HistoryReader}. */
export class RecentWords implements HistoryReader, Rewindable {
  /**
   * The short part's slots, its spare slot, then the long part's slots and its spare slot, from `base`: in
   * an array of its own, or a block of the thread's shared chunks (word-blocks.ts) until {@link dropWords}.
   */
  private words: Uint32Array;
  private base: number;
  /** Where the long part starts, from `base`. */
  private readonly longAt: number;
  private n = 0;
  /** The count before the push() rollback() undoes (-2: mark() was called, the next push is kept; -1: none). */
  private undoN = -1;

  /**
   * `slots`: calls whose every word is kept; `reach` (at least `slots`): calls whose signature and outcome
   * are; `shared`: the words in a block of the thread's chunks, which the owner gives back ({@link dropWords}).
   */
  constructor(
    readonly slots: number,
    readonly reach: number = slots,
    shared = false,
  ) {
    if (reach < slots) throw new RangeError(`loopwatch: a reach of ${reach} calls is shorter than ${slots} slots`);
    this.longAt = SHORT * (slots + 1);
    if (shared) {
      const block = takeWords(this.size);
      this.words = block.words;
      this.base = block.base;
    } else {
      this.words = new Uint32Array(this.size);
      this.base = 0;
    }
  }

  /** Words the ring takes. */
  private get size(): number {
    return this.longAt + LONG * (this.reach + 1);
  }

  /**
   * Gives the shared block of a ring made with `shared` back to the thread (its owner's session is
   * disposed), as it is: nothing reads a disposed session (LoopDetector refuses every read with a
   * DisposedError), so the words are not copied first; the ring holds none afterwards. Its owner calls it
   * once (WasmPipeline.dispose).
   */
  dropWords(): void {
    giveWords(this.size, this.words, this.base);
    this.words = NO_WORDS;
    this.base = 0;
  }

  get count(): number {
    return this.n;
  }

  /** The oldest call held (no reader asks about an older one). */
  get oldest(): number {
    return this.n > this.reach ? this.n - this.reach : 0;
  }

  /** Records call `count`'s words (`flags` as the module's outcome-flags byte). */
  push(tool: number, sig: number, outcome: number, masked: number, flags: number): void {
    const b = this.base;
    const p = b + SHORT * (this.n % this.slots);
    const q = b + this.longAt + LONG * (this.n % this.reach);
    const w = this.words;
    if (this.undoN === -2) {
      w.copyWithin(b + SHORT * this.slots, p, p + SHORT);
      w.copyWithin(b + this.longAt + LONG * this.reach, q, q + LONG);
      this.undoN = this.n;
    }
    w[p] = tool >>> 0;
    w[p + 1] = masked >>> 0;
    w[p + 2] = flags & 0xff;
    w[q] = sig >>> 0;
    w[q + 1] = outcome >>> 0;
    this.n++;
  }

  same(ring: RingId, i: number, j: number): boolean {
    const w = this.words;
    const l = LONG_AT[ring] ?? -1;
    if (l >= 0) {
      const b = this.base + this.longAt + l;
      return w[b + LONG * (i % this.reach)] === w[b + LONG * (j % this.reach)];
    }
    const s = SHORT_AT[ring] ?? -1;
    if (s < 0) throw new RangeError(`loopwatch: ring ${ring} is not kept on the host`);
    const b = this.base + s;
    return w[b + SHORT * (i % this.slots)] === w[b + SHORT * (j % this.slots)];
  }

  flagsOf(index: number): number {
    return this.words[this.base + SHORT * (index % this.slots) + 2] as number;
  }

  /**
   * Takes the newest `reach` calls' words from a reader of the module's rings (after a snapshot is restored
   * into the slot): `word(ring, i)` gives call i's word of a ring.
   */
  fill(count: number, word: (ring: RingId, index: number) => number, flagsOf: (index: number) => number): void {
    this.reset();
    const from = count > this.reach ? count - this.reach : 0;
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
    const b = this.base;
    const p = b + SHORT * (n % this.slots);
    const q = b + this.longAt + LONG * (n % this.reach);
    this.words.copyWithin(p, b + SHORT * this.slots, b + SHORT * this.slots + SHORT);
    this.words.copyWithin(q, b + this.longAt + LONG * this.reach, b + this.longAt + LONG * this.reach + LONG);
    this.n = n;
  }

  reset(): void {
    this.words.fill(0, this.base, this.base + this.size);
    this.n = 0;
    this.undoN = -1;
  }
}
