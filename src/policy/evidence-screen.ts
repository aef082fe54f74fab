/**
 * What a signal is evidence of, read by the host before the policy weighs it. The detectors say what
 * repeats; the host knows what the calls were (their turns, what their answers mean), and a warning, like
 * a break, needs evidence that the session is not progressing. Each signal is:
 *
 * - kept as it is;
 * - dropped, when it is no evidence of a loop at all: its repetitions are one model turn (turns.ts), or
 *   the result it says keeps coming back is an acknowledgement, not an answer;
 * - or marked as progress, which the policy's progress mode then weighs (`suppress` sets it aside, `slow`
 *   climbs half a rung, `ignore` keeps it): similar calls whose "very same answer" is an acknowledgement
 *   ("The file <path> has been updated successfully." after each of several edits) show no stall.
 *
 * Shared by both engines: it reads only what the host keeps (the call log and the calls' facts), never the
 * detectors' rings (in a batch those may already hold later calls).
 */
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal, Progress } from '../types.js';
import { CallFact, type CallFacts } from './call-facts.js';
import { type TurnThresholds, repeatsOverTurns } from './turns.js';

/** A copy of a signal with another progress (its pattern, when made on demand, still made on demand). */
export function withProgress(s: LoopSignal, progress: Progress): LoopSignal {
  return Object.assign(Object.create(Object.getPrototypeOf(s) as object) as LoopSignal, s, { progress });
}

/** The host's reading of a session's signals. */
export class EvidenceScreen {
  constructor(
    private readonly log: CallLog,
    private readonly facts: CallFacts,
    private readonly turns: TurnThresholds,
  ) {}

  /** The signal as evidence of a loop at call `index`: itself, a copy marked as progress, or null (none). */
  screen(s: LoopSignal, index: number): LoopSignal | null {
    if (!repeatsOverTurns(this.log, this.facts, this.turns, s, index)) return null;
    if (s.detector === s.kind && (s.kind === 'result_repeat' || (s.fuzzy === true && s.progress === 'stalled')) && this.anyHas(s.unit ?? [index], CallFact.ACK)) {
      // the same acknowledgement is no repeated answer: results repeating is no evidence, similar calls no stall
      return s.kind === 'result_repeat' ? null : withProgress(s, 'mixed');
    }
    return s;
  }

  private anyHas(calls: readonly number[], fact: number): boolean {
    for (const i of calls) if ((this.facts.of(i) & fact) !== 0) return true;
    return false;
  }
}
