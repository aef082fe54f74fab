/**
 * What a signal is evidence of, read by the host before the policy weighs it. The detectors say what
 * repeats; the host knows what the calls were (their turns, what their answers mean), and a warning, like
 * a break, needs evidence that the session is not progressing. Each signal is:
 *
 * - kept as it is;
 * - dropped, when it is no evidence of a loop at all (its repetitions are one model turn: see turns.ts);
 * - or marked as progress (`progress: 'changing'`), which the policy's progress mode then weighs
 *   (`suppress` sets it aside, `slow` climbs half a rung, `ignore` keeps it).
 *
 * Shared by both engines: it reads only what the host keeps (the call log and the calls' facts), never the
 * detectors' rings (in a batch those may already hold later calls).
 */
import type { CallLog } from '../state/call-log.js';
import type { LoopSignal } from '../types.js';
import type { CallFacts } from './call-facts.js';
import { type TurnThresholds, repeatsOverTurns } from './turns.js';

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
    return s;
  }
}
