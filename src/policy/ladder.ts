/**
 * The graduated response of one session: the 1st verdict gets `ladder[0]`, the next ones climb the
 * ladder, the last rung repeats. A verdict may climb more than one rung (no progress) or part of one
 * (`interleavedStep`: results still changing, new work between repetitions, polling). With a cooldown, enough quiet calls send the session back to the first rung,
 * except for the loop it was climbing on: a verdict about the same repeated call (its key) whose loop began
 * before the quiet calls (its evidence spans them) takes the climb up where it was left, so a loop whose
 * repetitions are spaced out by more than the cooldown (the same search every dozen calls, between new
 * reads) still escalates. A loop that starts afresh after the quiet calls starts on the first rung.
 *
 * A rung is earned by a loop: a different loop that began after the last verdict (another call, its first
 * repetitions all after that verdict) is at most warned at its first sighting, however high the ladder
 * stands (a CI poll asked about must not make the first failed edit after it a break). Its verdict climbs
 * the ladder as any does, so its next sighting, or any other verdict, acts on the rung the session stands on.
 * A block (a proposal broken before it ran, not recorded) climbs keyed to its loop too, held between the
 * calls recorded before it and the next ({@link BLOCK_OFFSET}): after a stop, a different loop begun since
 * is warned at its first sighting, as after any verdict, while the loop that was blocked keeps being refused.
 */
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';
import type { LoopAction } from '../types.js';

/**
 * How far before the call index it would have had a block is held (`at`): it came after the calls recorded
 * before it and before any recorded since, so a loop begun at that index or later began after it, one begun
 * before it did not; and, no whole index, it names no recorded call (lastVerdictAt).
 */
export const BLOCK_OFFSET = 0.5;

/** Where a session stands on its action ladder. */
export class Ladder {
  private level = 0;
  private quiet = 0;
  /** Key of the loop the last verdict was about (0: none), and the call it came at. */
  private key = 0;
  private at = 0;
  /** Where the ladder stood when a cooldown sent it back, the key of that loop and its last verdict's call. */
  private dormant = 0;
  private dormantKey = 0;
  private dormantAt = 0;

  constructor(
    private readonly rungs: readonly LoopAction[],
    private readonly cooldown: number,
  ) {}

  /**
   * Where a verdict about the loop `key` that began at call `loopStart` stands: a dormant climb resumes
   * for the same loop when the loop began before that climb's last verdict.
   */
  private levelFor(key: number, loopStart: number): number {
    const resumes = key !== 0 && key === this.dormantKey && this.level === 0 && loopStart <= this.dormantAt;
    return resumes ? this.dormant : this.level;
  }

  /** The action for a verdict now about the loop `key` (0: any loop) that began at call `loopStart`. */
  peek(key = 0, loopStart = Infinity): LoopAction {
    const top = this.rungs.length - 1;
    const rung = Math.min(Math.floor(this.levelFor(key, loopStart)), top);
    return this.rungs[this.isNewLoop(key, loopStart) ? Math.min(rung, this.belowBreak()) : rung] as LoopAction;
  }

  /**
   * Whether a verdict about the loop `key` begun at `loopStart` is about a loop the ladder has not seen:
   * another call than the last verdict's, begun after that verdict (a keyed one: a block's climb names none).
   */
  private isNewLoop(key: number, loopStart: number): boolean {
    return key !== 0 && this.key !== 0 && key !== this.key && Number.isFinite(loopStart) && loopStart > this.at;
  }

  /** The highest rung below the ladder's first break (the last rung when it has none, 0 when it starts on one). */
  private belowBreak(): number {
    const first = this.rungs.indexOf('break');
    return first < 0 ? this.rungs.length - 1 : Math.max(first - 1, 0);
  }

  /** Counts a verdict at call `at` about the loop `key` begun at `loopStart`: climbs `step` rungs. */
  climb(step: number, key = 0, loopStart = Infinity, at = 0): void {
    this.level = this.levelFor(key, loopStart) + step;
    this.dormantKey = 0;
    this.key = key;
    this.at = at;
    this.quiet = 0;
  }

  /**
   * Counts a block of a proposal about the loop `key` begun at `loopStart`, the call index it would have had
   * being `index` (it is not recorded): climbs `step` rungs, held {@link BLOCK_OFFSET} before that index.
   */
  climbBlocked(step: number, key: number, loopStart: number, index: number): void {
    this.climb(step, key, loopStart, index - BLOCK_OFFSET);
  }

  /** The call of the latest verdict that climbed it (undefined: none, or a block's climb, which names no call recorded). */
  lastVerdictAt(): number | undefined {
    return this.key === 0 || !Number.isInteger(this.at) ? undefined : this.at;
  }

  /** Counts a call without a verdict, and steps back down after `cooldown` of them. */
  quietCall(): void {
    this.quiet++;
    if (this.cooldown > 0 && this.quiet >= this.cooldown && this.level !== 0) {
      this.dormant = this.level;
      this.dormantKey = this.key;
      this.dormantAt = this.at;
      this.level = 0;
    }
  }

  /**
   * Whether no verdict has moved it: on the first rung with nothing dormant (quiet calls counted or not,
   * which matter only once it has climbed).
   */
  isFirstRung(): boolean {
    return this.level === 0 && this.key === 0 && this.at === 0 && this.dormant === 0 && this.dormantKey === 0 && this.dormantAt === 0;
  }

  /** Back to the first rung. */
  reset(): void {
    this.level = 0;
    this.quiet = 0;
    this.key = 0;
    this.at = 0;
    this.dormant = 0;
    this.dormantKey = 0;
    this.dormantAt = 0;
  }

  /** Writes where the session stands, for a snapshot. */
  save(w: ByteWriter): void {
    w.f64(this.level);
    w.f64(this.quiet);
    w.u32(this.key);
    w.f64(this.at);
    w.f64(this.dormant);
    w.u32(this.dormantKey);
    w.f64(this.dormantAt);
  }

  /** Reads what save() wrote. */
  load(r: ByteReader): void {
    this.level = r.f64();
    this.quiet = r.f64();
    this.key = r.u32();
    this.at = r.f64();
    this.dormant = r.f64();
    this.dormantKey = r.u32();
    this.dormantAt = r.f64();
  }
}
