/**
 * What may name a session: one rule for every door (LoopEngine, LiveGuard, LoopPool, `serve` over HTTP and
 * NATS, the trace readers): a non-empty string. An empty id is what an unset variable gives
 * (`process.env.RUN_ID ?? ''`); accepted, every run without a name would share one session, and one run's
 * calls would count against another's. (A lone LoopDetector's default `sessionId` is `''`: it only labels
 * that one session's verdicts, it keys nothing.) Every method that takes a session id refuses any other with
 * {@link checkSessionId}'s InvalidEventError, the ones that only look a session up (`end`, `snapshot`,
 * `stopped`, ...) as the ones that start it (`check`): an `end('')` that quietly found nothing would hide the
 * unset variable as well as a `check('')` that took it.
 */
import { InvalidEventError } from '../errors.js';
import { describe } from '../options/checks.js';

/** The rule, as the refusals say it (`sessionId must be a non-empty string, received ''`). */
export const SESSION_ID_RULE = 'must be a non-empty string';

/** Whether `id` may name a session. */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && id !== '';
}

/**
 * `id` when it may name a session; else an InvalidEventError naming `name` (the argument or field), the rule
 * and what was received (`sessionId must be a non-empty string, received "" (string)`).
 */
export function checkSessionId(id: unknown, name = 'sessionId'): string {
  if (!isSessionId(id)) throw new InvalidEventError(name, `${name} ${SESSION_ID_RULE}, received ${describe(id)}`);
  return id;
}
