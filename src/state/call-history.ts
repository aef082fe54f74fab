/**
 * The per-session record of recent calls that the call detectors read: parallel fixed-size rings of
 * 32-bit keys (the low words of the calls' 64-bit fingerprints) in Uint32Arrays, and a flags byte per call.
 *
 * ```
 *  absolute call index:  0 1 2 ... n-capacity ... n-1      (n = count)
 *  ring slot:            index % capacity
 *  readable:             indices in [oldest, count)  with oldest = max(0, count - capacity)
 * ```
 *
 * Detectors compare keys: two calls are "the same" when the low 32 bits of their fingerprints are. A false
 * match needs a 1-in-2^32 coincidence per comparison; in exchange a session's rings take 4 bytes a call,
 * and the WebAssembly build keeps exactly this layout in linear memory.
 */

import type { Rewindable } from './rewindable.js';

/** Flags of a recorded call's outcome. */
export const OutcomeFlag = {
  /** A result or an error is known. */
  KNOWN: 1,
  /** The call failed. */
  ERROR: 2,
  /** The failure was infrastructure (rate limit, 5xx, timeout, reset). */
  INFRA: 4,
  /** The result was empty (only ASCII white space, or null). */
  EMPTY: 8,
  /** The result says nothing was found ("No results", "0 matches", `[]`). */
  NOTHING: 16,
  /** The call is a proposal, checked before it runs (see LoopDetector.propose): no outcome yet. */
  PROPOSED: 32,
  /** The result is text under {@link BRIEF_BYTES} bytes, white space trimmed: an acknowledgement ("OK", "available"), not an answer. */
  BRIEF: 64,
  /**
   * The failure names the tests that failed (src/text/test-place.ts: a test run whose tests failed, the code's
   * failure, not the call's): losing-streak.ts counts no such run as a try of the agent's gone wrong.
   */
  TESTS: 128,
} as const;

/** Bytes under which a text result is brief (as assembly/abi.ts's BRIEF_BYTES). */
export const BRIEF_BYTES = 64;

/** The rings of a call history, by id. */
export const Ring = {
  /** Canonical call signatures. */
  SIG: 0,
  /** Tool-name fingerprints. */
  TOOL: 1,
  /** Outcome fingerprints: the result's, else the error text's. */
  OUTCOME: 2,
  /** Masked outcomes: the error's class for failures, the masked result text otherwise. */
  MASKED: 3,
  /** Exact error-text fingerprints. */
  ERROR: 4,
} as const;

/** One of {@link Ring}'s ids. */
export type RingId = (typeof Ring)[keyof typeof Ring];

/** What detectors read from a call history: this class, or the WebAssembly slot of a session. */
export interface HistoryReader {
  /** Calls recorded since the last reset. */
  readonly count: number;
  /** Oldest call index readable in every ring. */
  readonly oldest: number;
  /** Whether two calls hold the same key in one ring. */
  same(ring: RingId, i: number, j: number): boolean;
  /** The {@link OutcomeFlag} bits of a call. */
  flagsOf(index: number): number;
}

/** Recent calls of one session. */
export class CallHistory implements HistoryReader, Rewindable {
  /** Calls kept. */
  readonly capacity: number;
  /** Canonical call signatures. */
  readonly sig: Uint32Array;
  /** Tool-name fingerprints. */
  readonly tool: Uint32Array;
  /** Outcome fingerprints: the result's, else the error text's. */
  readonly outcome: Uint32Array;
  /** Masked outcome fingerprints: the error's class for failures, the masked result text otherwise. */
  readonly masked: Uint32Array;
  /** Exact error-text fingerprints (0 without an error). */
  readonly error: Uint32Array;
  /** {@link OutcomeFlag} bits. */
  readonly flags: Uint8Array;
  private n = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.sig = new Uint32Array(capacity);
    this.tool = new Uint32Array(capacity);
    this.outcome = new Uint32Array(capacity);
    this.masked = new Uint32Array(capacity);
    this.error = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.rings = [this.sig, this.tool, this.outcome, this.masked, this.error];
  }

  /** Calls recorded since the last reset. */
  get count(): number {
    return this.n;
  }

  /** Oldest call index still readable. */
  get oldest(): number {
    return this.n > this.capacity ? this.n - this.capacity : 0;
  }

  /** Ring slot of a call index. */
  slot(index: number): number {
    return index % this.capacity;
  }

  /** Starts a new call with every key 0 and no flags; the caller fills its slot. Returns its index. */
  advance(): number {
    const index = this.n++;
    const s = this.slot(index);
    this.sig[s] = this.tool[s] = this.outcome[s] = this.masked[s] = this.error[s] = 0;
    this.flags[s] = 0;
    return index;
  }

  private readonly rings: readonly Uint32Array[];

  /** Whether two calls hold the same key in one ring. */
  same(ring: RingId, i: number, j: number): boolean {
    const r = this.rings[ring] as Uint32Array;
    return r[this.slot(i)] === r[this.slot(j)];
  }

  /** The flags of a call. */
  flagsOf(index: number): number {
    return this.flags[this.slot(index)] as number;
  }

  private undo: { n: number; keys: number[]; flags: number } | null = null;

  /** Remembers the slot the next advance() overwrites (see Rewindable). */
  mark(): void {
    const s = this.slot(this.n);
    this.undo = { n: this.n, keys: this.rings.map((r) => r[s] as number), flags: this.flags[s] as number };
  }

  /** Undoes the call recorded since mark(). */
  rollback(): void {
    const u = this.undo;
    if (u === null) return;
    this.undo = null;
    const s = this.slot(u.n);
    this.rings.forEach((r, k) => (r[s] = u.keys[k] as number));
    this.flags[s] = u.flags;
    this.n = u.n;
  }

  /** Forgets every call. */
  reset(): void {
    this.undo = null;
    this.n = 0;
  }
}
