/**
 * The per-session record of recent calls that the call detectors read: parallel fixed-size rings of
 * 64-bit fingerprints (as hi/lo word pairs in Uint32Arrays) and a flags byte per call.
 *
 * ```
 *  absolute call index:  0 1 2 ... n-capacity ... n-1      (n = count)
 *  ring slot:            index % capacity
 *  readable:             indices in [oldest, count)  with oldest = max(0, count - capacity)
 * ```
 *
 * This is the layout the WebAssembly build keeps in linear memory: nothing here holds a string or object.
 */

/** Flags of a recorded call's outcome. */
export const OutcomeFlag = {
  /** A result or an error is known. */
  KNOWN: 1,
  /** The call failed. */
  ERROR: 2,
  /** The failure was infrastructure (rate limit, 5xx, timeout, reset). */
  INFRA: 4,
  /** The result was empty (blank text, null). */
  EMPTY: 8,
  /** The result says nothing was found ("No results", "0 matches", "not found", `[]`). */
  NOTHING: 16,
} as const;

/** Recent calls of one session. */
export class CallHistory {
  /** Calls kept. */
  readonly capacity: number;
  /** Canonical call signatures. */
  readonly sig: Uint32Array;
  /** Tool-name fingerprints. */
  readonly tool: Uint32Array;
  /** Outcome fingerprints (the result's, else the error's). */
  readonly outcome: Uint32Array;
  /** Exact error fingerprints. */
  readonly error: Uint32Array;
  /** Error-class fingerprints (volatile parts masked). */
  readonly errorClass: Uint32Array;
  /** {@link OutcomeFlag} bits. */
  readonly flags: Uint8Array;
  private n = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.sig = new Uint32Array(capacity * 2);
    this.tool = new Uint32Array(capacity * 2);
    this.outcome = new Uint32Array(capacity * 2);
    this.error = new Uint32Array(capacity * 2);
    this.errorClass = new Uint32Array(capacity * 2);
    this.flags = new Uint8Array(capacity);
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

  /** Starts a new call; the caller fills its slot with the `set*` methods. Returns its index. */
  advance(): number {
    const index = this.n++;
    const s = this.slot(index) * 2;
    this.outcome[s] = this.outcome[s + 1] = 0;
    this.error[s] = this.error[s + 1] = 0;
    this.errorClass[s] = this.errorClass[s + 1] = 0;
    this.flags[this.slot(index)] = 0;
    return index;
  }

  /** Writes a 64-bit value into one ring. */
  static put(ring: Uint32Array, slot: number, hi: number, lo: number): void {
    ring[slot * 2] = hi;
    ring[slot * 2 + 1] = lo;
  }

  /** Whether two calls hold the same value in one ring. */
  same(ring: Uint32Array, i: number, j: number): boolean {
    const a = this.slot(i) * 2;
    const b = this.slot(j) * 2;
    return ring[a] === ring[b] && ring[a + 1] === ring[b + 1];
  }

  /** The flags of a call. */
  flagsOf(index: number): number {
    return this.flags[this.slot(index)] as number;
  }

  /** Forgets every call. */
  reset(): void {
    this.n = 0;
  }
}
