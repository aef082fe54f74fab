/**
 * The graduated response of one session: the 1st verdict gets `ladder[0]`, the next ones climb the
 * ladder, the last rung repeats. A verdict may climb more than one rung (no progress) or half a rung
 * (results still changing). With a cooldown, enough quiet calls send the session back to the first rung.
 */
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { LoopAction } from '../types.js';

/** Where a session stands on its action ladder. */
export class Ladder {
  private level = 0;
  private quiet = 0;

  constructor(
    private readonly rungs: readonly LoopAction[],
    private readonly cooldown: number,
  ) {}

  /** The action for a verdict now. */
  peek(): LoopAction {
    return this.rungs[Math.min(Math.floor(this.level), this.rungs.length - 1)] as LoopAction;
  }

  /** Counts a verdict: climbs `step` rungs. */
  climb(step: number): void {
    this.level += step;
    this.quiet = 0;
  }

  /** Counts a call without a verdict, and steps back down after `cooldown` of them. */
  quietCall(): void {
    this.quiet++;
    if (this.cooldown > 0 && this.quiet >= this.cooldown) this.level = 0;
  }

  /** Back to the first rung. */
  reset(): void {
    this.level = 0;
    this.quiet = 0;
  }

  /** Writes where the session stands, for a snapshot. */
  save(w: ByteWriter): void {
    w.f64(this.level);
    w.f64(this.quiet);
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.level = r.f64();
    this.quiet = r.f64();
  }
}
