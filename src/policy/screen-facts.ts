/**
 * What the evidence screen reads of a session's recent calls beyond their signatures: each call's
 * CallFact bits, its model turn and what a change changed, by call index, within the calls kept. The
 * session's CallFacts is one; `loopwatch calibrate` replays recorded facts through the same screen with a
 * stand-in over a recorded run (src/calibrate/fact-log.ts).
 */

/** The facts of recent calls an EvidenceScreen reads, by call index. */
export interface ScreenFacts {
  /** The oldest call whose facts are kept. */
  readonly oldest: number;
  /** The CallFact bits of a call (0 when it is not, or no longer, kept). */
  of(index: number): number;
  /** The model turn of a call, if one is known and the call still kept. */
  turnOf(index: number): number | undefined;
  /** What a change changed (a fingerprint of the file it names), 0 when unknown or not kept. */
  targetOf(index: number): number;
}
