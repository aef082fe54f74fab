/**
 * What the verdict policy reads of a session's recent calls: a call's signature (its low 32 bits, to tell
 * repetitions from new work and to key the ladder's climb) and its reference (for the verdict's unit).
 * The session's CallLog is one; `loopwatch calibrate` replays recorded signals through the policy with a
 * stand-in that holds only the signatures.
 */
import type { CallRef } from '../types.js';

/** The calls a VerdictPolicy reads, by call index. */
export interface PolicyLog {
  /** The low 32 bits of the call's signature, or undefined when the call is not (or no longer) kept. */
  signatureLow(index: number): number | undefined;
  /** The call's reference, or undefined when it is not (or no longer) kept. */
  ref(index: number): CallRef | undefined;
}
