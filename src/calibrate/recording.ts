/**
 * What one replay records for `loopwatch calibrate`: per run, per call, the built-in signals of its
 * proposal (two-phase, before it runs) and of its record (after it ran), and the per-call facts the policy
 * and its evidence screen read besides them (what a session's CallFacts holds of the call: its outcome's
 * facts, its turn, what a change changed), so that the simulation screens each candidate's signals as a
 * session would. Signals are plain frozen data (their documented fields; patterns left out, the
 * verdicts of a simulation are only counted).
 */
import type { LoopSignal } from '../types.js';

/** One recorded call (a call the session recorded: exempt and unreadable calls are left out). */
export interface RecordedCall {
  /** Its index among all the calls of its run, as an evaluation numbers them. */
  readonly at: number;
  /** The low 32 bits of its signature (what the policy tells repetitions and loops apart by). */
  readonly sig: number;
  /** It failed (an error the session reads as one). */
  readonly failed: boolean;
  /** Its answer says the work is still under way (polling), as a session reads it for the policy. */
  readonly waiting: boolean;
  /** The CallFact bits of its outcome (see policy/outcome-facts.ts). */
  readonly facts: number;
  /** Its model turn (the event's `round`), if it had one. */
  readonly turn: number | undefined;
  /** What it changed, if a change of the workspace (a file's fingerprint; 0: none known). */
  readonly target: number;
  /**
   * At its proposal, the same call had already run and failed, or run twice with the same outcome, its runs
   * not interleaved with new work (src/live/evidence.ts's sameCallStalledAlone).
   */
  readonly stalledBefore: boolean;
  /**
   * At its proposal, how many calls back the same call last ran (0: it had not run): its earlier runs are
   * evidence only within the policy's cooldown (src/live/evidence.ts's retriedAfter).
   */
  readonly lastRun: number;
  /**
   * At its proposal, how many calls right before it were of its tool and failed with one class of error, none
   * refused for its args and, for a shell command, each running its program, at most WALL_RECORDED
   * (src/live/dead-end-wall.ts's wallLength); 0 for a call the allow option lets repeat.
   */
  readonly wall: number;
  /**
   * At its proposal, when the same call's latest two runs answered alike (src/live/broken-call.ts), where
   * the signal of a call proposed again after it broke would say its loop began; else -1.
   */
  readonly alikeFrom: number;
  /**
   * The latest fresh start before it (a person's prompt: TraceCall.prompted), as the session's count of
   * calls then; 0: none. `fresh`: that fresh start came right before this call (since the previous one
   * recorded); `returned`: the call ran RETURNS times since (src/live/fresh-start.ts), so the loops begun
   * before it count again.
   */
  readonly freshAt: number;
  readonly fresh: boolean;
  readonly returned: boolean;
  /** Signals of its proposal (before it ran), in detector order. */
  readonly proposed: readonly LoopSignal[];
  /** Signals of its record (after it ran), in detector order. */
  readonly recorded: readonly LoopSignal[];
}

/** The longest wall (calls right before a proposal that failed alike) recorded: above every dead_end threshold fitted. */
export const WALL_RECORDED = 64;

/** One recorded run. */
export interface RecordedRun {
  readonly session: string;
  readonly file: string;
  /** Calls read, the unrecorded ones included. */
  readonly calls: number;
  readonly recorded: readonly RecordedCall[];
}

/** No signals (shared). */
export const NO_SIGNALS: readonly LoopSignal[] = Object.freeze([]);

/** A signal as plain frozen data: its documented fields, without the pattern (and chunk) text. */
export function plainSignal(s: LoopSignal): LoopSignal {
  const out: { -readonly [K in keyof LoopSignal]?: LoopSignal[K] } = { kind: s.kind, detector: s.detector, pattern: '', confidence: s.confidence };
  if (s.loopStart !== undefined) out.loopStart = s.loopStart;
  if (s.unit !== undefined) out.unit = Object.freeze([...s.unit]);
  if (s.repeatCount !== undefined) out.repeatCount = s.repeatCount;
  if (s.progress !== undefined) out.progress = s.progress;
  if (s.progressGated !== undefined) out.progressGated = s.progressGated;
  if (s.fuzzy !== undefined) out.fuzzy = s.fuzzy;
  return Object.freeze(out) as LoopSignal;
}
