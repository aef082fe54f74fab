/**
 * What the model reads of a decision, made true for the host that acts on it. A verdict's message ends with
 * what follows from it (message.ts: "This call was blocked and did not run.", "The run is being stopped.",
 * "A human has been asked whether to continue."), said as a host that stops runs and asks humans would act.
 * Not every host does (docs/adapters.md, "what each integration can stop"):
 *
 * ```
 *   phase    action  host                          the message ends
 *   record   warn    any (the call already ran)    a break: "This call had already run; ..."; an ask: nothing
 *   propose  ask     no approval step              nothing (the call runs; the message is a warning)
 *   propose  stop    'run': stops the run          "The run is being stopped." (as the verdict says)
 *   propose  stop    'user': only tells the user   "This call was blocked; the user has been told to stop the run."
 *   propose  stop    'call': only blocks the call  "This call was blocked and did not run."
 * ```
 *
 * The endings are fixed words: replacing one cannot complete a secret the redaction took out.
 */
import { BLOCKED, CONSEQUENCE } from '../policy/message.js';
import type { LoopAction } from '../types.js';

/** What a host does with a `stop`: ends the run, blocks the call and tells the user to stop it, or only blocks the call. */
export type HostStop = 'run' | 'user' | 'call';

/** What a host does with the decisions it cannot carry out as the two-phase API names them. */
export interface HostReach {
  /** What a `stop` does. */
  readonly stop: HostStop;
  /** An `ask` reaches a human (an approval step); false: the call runs and the model reads the message as a warning. */
  readonly asks: boolean;
}

/** A host that stops runs and asks humans: the messages as the verdict gives them. */
export const FULL_REACH: HostReach = Object.freeze({ stop: 'run', asks: true });

/** The ending of a break's message recorded after its call ran: nothing was blocked, the next repeat may be. */
export const ALREADY_RAN = ' This call had already run; repeating it again may be blocked.';

/** The ending of a stop's message where the host blocks the call and can only tell the user to stop the run. */
export const USER_TOLD = ' This call was blocked; the user has been told to stop the run.';

const ENDINGS: readonly string[] = [CONSEQUENCE.break, CONSEQUENCE.ask, BLOCKED];

/** `message` without the consequence a verdict ends with (as it is when it ends with none). */
function withoutEnding(message: string): string {
  for (const e of ENDINGS) if (e !== '' && message.endsWith(e)) return message.slice(0, -e.length);
  return message;
}

/**
 * The message of a decision recorded after its call ran (phase `record`): a break's or an ask's ending
 * replaced, since the call already ran, nothing was blocked and no one was asked.
 */
export function recordedMessage(message: string, action: LoopAction): string {
  if (action === 'warn') return message;
  return withoutEnding(message) + (action === 'break' ? ALREADY_RAN : '');
}

/** The text of a decision for the host that shows it (see the header). */
export function hostMessage(d: { readonly phase: string; readonly action: string; readonly message?: string }, reach: HostReach): string | undefined {
  const m = d.message;
  if (m === undefined || d.phase !== 'propose') return m;
  if (d.action === 'ask' && !reach.asks) return withoutEnding(m);
  if (d.action !== 'stop' || reach.stop === 'run') return m;
  return withoutEnding(m) + (reach.stop === 'user' ? USER_TOLD : BLOCKED);
}
