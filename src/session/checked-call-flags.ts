/**
 * Two facts of the call being concluded that the verdict policy weighs only for a signal it keeps (one that
 * clears the screen, the progress gate and `minConfidence`): whether its answer says the work is still under
 * way (a poll) and whether it failed. Both read the call's result, so they are read when the policy first asks
 * (CallFlag's `value`), not for every call with a signal: on the traces, 6,313 calls have signals and ~1,000
 * are weighed that far (docs/speed.md, "sigcost"). One pair for the thread: a conclusion runs no caller's code
 * before the policy has read them (listeners run after the decision; `onDetect` after both are read).
 */
import type { CallFlag } from '../policy/verdict-policy.js';
import { CallFact } from '../policy/call-facts.js';
import { callFailed } from '../policy/failed-call.js';
import { WAITING_LOOK, saysStillWaiting } from '../text/still-waiting.js';
import type { ToolEvent } from '../types.js';
import { RawJsonString } from '../wasm/raw-json-string.js';

const NO_EVENT: ToolEvent = Object.freeze({ tool: '' });

/**
 * The result as saysStillWaiting reads it (exported for `loopwatch calibrate`, which records what the policy
 * reads). A result still in its JSON bytes is decoded only when it can be short enough to be read: its text
 * has at least one UTF-16 unit per 6 bytes (`\uXXXX`), so longer content is past WAITING_LOOK, which
 * saysStillWaiting never reads.
 */
export function waitingText(result: unknown): unknown {
  if (!RawJsonString.is(result)) return result;
  return result.content.length > 6 * WAITING_LOOK ? undefined : result.value();
}

/** The event being concluded and its recorded CallFact bits; each flag read at most once per call. */
const checked = { event: NO_EVENT, bits: 0, waiting: -1, failed: -1 };

/** Whether the call being concluded polls: no error, and its facts or its answer say the work is still under way. */
export const CHECKED_WAITING: CallFlag = {
  get value(): boolean {
    if (checked.waiting < 0) {
      const e = checked.event;
      checked.waiting = e.error === undefined && ((checked.bits & CallFact.WAITING) !== 0 || saysStillWaiting(waitingText(e.result))) ? 1 : 0;
    }
    return checked.waiting === 1;
  },
};

/** Whether the call being concluded failed (failed-call.ts's callFailed of its event). */
export const CHECKED_FAILED: CallFlag = {
  get value(): boolean {
    if (checked.failed < 0) checked.failed = callFailed(checked.event) ? 1 : 0;
    return checked.failed === 1;
  },
};

/** Makes {@link CHECKED_WAITING} and {@link CHECKED_FAILED} read the call of `e`, whose recorded facts are `bits`. */
export function checkingFlags(e: ToolEvent, bits: number): void {
  checked.event = e;
  checked.bits = bits;
  checked.waiting = -1;
  checked.failed = -1;
}

/** Lets go of the caller's event once its conclusion is over. */
export function releaseFlags(): void {
  checked.event = NO_EVENT;
}
