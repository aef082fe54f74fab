/**
 * A warning said once: the hook keeps, per session, what it last said to the agent about a loop, and stays
 * quiet when a new verdict would say nothing new. A hook that nags gets uninstalled: over the 38 Codex
 * sessions the hook warned in the readable sets, 27 of its 114 warnings repeated the session's previous one
 * (docs/evaluation.md, quiet40 and quiet41).
 *
 * A verdict speaks when the hook said nothing yet in this stretch of the session, or it is of another kind,
 * about another loop (one begun after the call the hook last warned about), or it steps up: a stronger action (warn -> ask -> break) or a
 * stronger recommendation (replan -> backtrack -> escalate: "You are stuck"). A block (deny, stop) is always
 * given: the call is not run, and the agent must be told why. A person's new prompt (a fresh start) forgets
 * what was said. The memory is the state file's notes (session-meta.ts `said`), so it holds across the
 * agent's hook processes; what counts as said is what the agent's reply carried (the codec's reply for the
 * decision differs from its reply for `allow`: a warning an old Codex cannot take before the call is not said).
 *
 * Detection is not changed: the detector gives its verdicts as before (`scan` and `eval` count verdicts, not
 * what a hook said), the decision log logs a verdict kept quiet as `allow` with `repeat: true` and its kind.
 */
import { liveDecision } from '../live/live-call.js';
import type { LiveDecision, LoopAction, Recommendation, Verdict } from '../types.js';

/** What the hook last said about a loop: the verdict's kind, the loop's start and the call it was about, its action and recommendation. */
export interface SaidNote {
  readonly kind: string;
  readonly loopStart: number;
  readonly index: number;
  readonly action: LoopAction;
  readonly recommended: Recommendation;
}

const ACTION_RANK: Readonly<Record<LoopAction, number>> = { warn: 0, ask: 1, break: 2 };
const ADVICE_RANK: Readonly<Record<Recommendation, number>> = { replan: 0, backtrack: 1, escalate: 2 };

/** The note of what `v` says. */
export function saidNote(v: Verdict): SaidNote {
  return { kind: v.kind, loopStart: v.loopStart, index: v.index, action: v.action, recommended: v.recommended };
}

/**
 * Whether `v` says nothing `last` did not: the same kind, about the same loop (one that began at or before the
 * call last warned about: a window's loop start moves on as the loop goes on, `frequency`'s "since call #1",
 * "#3", "#5"; a loop begun after it is another), no stronger action or recommendation.
 */
export function repeatsSaid(last: SaidNote | undefined, v: Verdict): boolean {
  if (last === undefined || last.kind !== v.kind || v.loopStart > last.index) return false;
  // the call warned about, again: its result's reply is where the model reads a warning the agent showed only
  // the person before the call (Gemini CLI's BeforeTool `systemMessage`, an old Codex's): said again
  if (v.index === last.index) return false;
  return ACTION_RANK[v.action] <= ACTION_RANK[last.action] && ADVICE_RANK[v.recommended] <= ADVICE_RANK[last.recommended];
}

/** What the hook answers for a decision, given what it last said. */
export interface Spoken {
  /** The decision to reply with: `decision`, or `allow` without its verdict when it would repeat. */
  readonly decision: LiveDecision;
  /** What the hook has last said once this reply is given. */
  readonly said: SaidNote | undefined;
  /** The verdict kept quiet, when it was. */
  readonly repeat?: Verdict;
}

/**
 * The reply's decision for `decision` when the hook last said `last`; `says` tells whether the agent's reply
 * for a decision carries its verdict (see the header).
 */
export function speak(decision: LiveDecision, last: SaidNote | undefined, says: (d: LiveDecision) => boolean): Spoken {
  const v = decision.verdict;
  if (v === null) return { decision, said: last };
  const blocks = decision.action === 'deny' || decision.action === 'stop';
  if (!blocks && repeatsSaid(last, v)) {
    return { decision: liveDecision(decision.session, decision.phase, decision.id, 'allow', null), said: last, repeat: v };
  }
  return { decision, said: says(decision) ? saidNote(v) : last };
}

/**
 * Whether the agent's reply for a decision carries its verdict (speak's `says`): `reply` of it is not `reply`
 * of `allow` (a warning an old Codex cannot take before the call is not said).
 */
export function saidBy(reply: (d: LiveDecision) => string): (d: LiveDecision) => boolean {
  return (d) => reply(d) !== reply(liveDecision(d.session, d.phase, d.id, 'allow', null));
}

const ACTIONS = new Set(Object.keys(ACTION_RANK));
const ADVICE = new Set(Object.keys(ADVICE_RANK));

/** Whether `v` is a note this module wrote (a state file's notes are read back). */
export function isSaidNote(v: unknown): v is SaidNote {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.kind === 'string' && o.kind.length <= 100 && typeof o.loopStart === 'number' && Number.isSafeInteger(o.loopStart) && o.loopStart >= 0 && typeof o.index === 'number' && Number.isSafeInteger(o.index) && o.index >= 0 && ACTIONS.has(o.action as string) && ADVICE.has(o.recommended as string);
}
