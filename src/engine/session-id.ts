/**
 * What may name a session: one rule for every door (LoopEngine, LiveGuard, LoopPool, `serve` over HTTP and
 * NATS, the trace readers): a non-empty string. An empty id is what an unset variable gives
 * (`process.env.RUN_ID ?? ''`); accepted, every run without a name would share one session, and one run's
 * calls would count against another's. (A lone LoopDetector's default `sessionId` is `''`: it only labels
 * that one session's verdicts, it keys nothing.)
 */

/** The rule, as the refusals say it (`sessionId must be a non-empty string, received ''`). */
export const SESSION_ID_RULE = 'must be a non-empty string';

/** Whether `id` may name a session. */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && id !== '';
}
