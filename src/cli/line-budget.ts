/**
 * A budget of stderr lines for messages that can come in bursts (a NATS worker's partition moves: up to
 * 1,024 partitions, each move a line, and a flapping fleet moves them again and again). A token bucket:
 * `burst` lines at once, then one line every `refillMs`; lines over the budget are counted, not written, and
 * the next line written says how many were left out, so a reader always knows some are missing. The
 * clock is passed in, so tests need no timers.
 */

/** Lines written at once before the budget binds, unless told otherwise. */
export const LINE_BURST = 64;

/** One more line may be written after this long (ms), unless told otherwise. */
export const LINE_REFILL_MS = 1_000;

/** Writes lines within a budget, counting those left out. */
export class LineBudget {
  private tokens: number;
  private last: number;
  private left = 0;

  /**
   * @param write writes one line (without its newline)
   * @param burst lines written at once (at least 1)
   * @param refillMs the time (ms) after which one more line may be written
   * @param now the clock (ms; performance.now by default)
   */
  constructor(
    private readonly write: (line: string) => void,
    private readonly burst = LINE_BURST,
    private readonly refillMs = LINE_REFILL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Lines left out since the last line written. */
  get leftOut(): number {
    return this.left;
  }

  /** Writes `line` if the budget allows (saying how many were left out before it); else counts it. Returns whether it was written. */
  say(line: string): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (t - this.last) / this.refillMs);
    this.last = t;
    if (this.tokens < 1) {
      this.left++;
      return false;
    }
    this.tokens -= 1;
    const note = this.left === 0 ? '' : ` (${this.left} ${this.left === 1 ? 'line' : 'lines'} before this one left out: more than ${this.burst} at once)`;
    this.left = 0;
    this.write(`${line}${note}`);
    return true;
  }
}
