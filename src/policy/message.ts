/**
 * The text of a verdict that is injected into the model's context: what was seen, since when, and what
 * to do next, in plain words the model can act on.
 */
import type { LoopAction, Recommendation } from '../types.js';
import { callName } from '../text/call-number.js';

const ADVICE: Readonly<Record<Recommendation, string>> = {
  replan: 'Stop repeating it: step back, reconsider what you know, and try a different approach.',
  backtrack: 'This path is a dead end: go back to where the loop began and take a different route.',
  escalate: 'You are stuck: stop and ask the user or a supervisor for help instead of retrying.',
};

/**
 * Advice a kind gives instead of ADVICE's, where ADVICE's words would be untrue of it: `failing_again`'s
 * calls, failing one after another, each another call (losing-streak.ts) or one call re-run after edits with
 * other output each time (failing-again.ts), repeated nothing that "Stop repeating it" could stop.
 */
const KIND_ADVICE: Readonly<Record<string, Partial<Record<Recommendation, string>>>> = {
  failing_again: { replan: 'None of these tries has worked: step back, reconsider what you know, and try a different approach.' },
};

/** The advice of a verdict of `kind` recommending `recommended`: the kind's own (KIND_ADVICE, own keys only), else ADVICE's. */
function adviceFor(kind: string, recommended: Recommendation): string {
  return (Object.hasOwn(KIND_ADVICE, kind) ? KIND_ADVICE[kind]?.[recommended] : undefined) ?? ADVICE[recommended];
}

/** What follows from a verdict's action, said at the end of its message. */
export const CONSEQUENCE: Readonly<Record<LoopAction, string>> = {
  warn: '',
  ask: ' A human has been asked whether to continue.',
  break: ' The run is being stopped.',
};

/** The consequence of a break given before a call runs (see LoopDetector.propose): the call is blocked. */
export const BLOCKED = ' This call was blocked and did not run.';

/** The message for a verdict; `loopStart` is the 0-based index of the call the loop began at, said as `call #N` counted from 1 (call-number.ts). */
export function verdictMessage(
  pattern: string,
  kind: string,
  confidence: number,
  loopStart: number,
  recommended: Recommendation,
  action: LoopAction,
  stalled: boolean,
  consequence: string = CONSEQUENCE[action],
): string {
  const evidence = stalled ? ' The results have not changed either.' : '';
  return (
    `[loopwatch] You appear to be in a loop (${kind}, confidence ${confidence.toFixed(2)}, since ${callName(loopStart)}): ` +
    `${pattern}.${evidence} ${adviceFor(kind, recommended)}${consequence}`
  );
}
