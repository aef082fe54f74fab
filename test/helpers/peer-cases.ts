/**
 * Other loop detectors' test cases, written again as loopwatch input, and the two ways they are replayed.
 *
 * A case is what a peer project's own test feeds its detector (Gemini CLI's LoopDetectionService, OpenHands'
 * StuckDetector, Roo Code's ToolRepetitionDetector, goose's RepetitionInspector), as a stream of steps:
 * tool calls (tool, args, and the outcome when the peer's test has one), the agent's text streamed outside
 * tool calls, and a new message from the user. Each case names the test it mirrors (repository, file, test
 * name); the scenarios are written here, not copied.
 *
 * A loop case runs on past the point where its peer fires, to twice the repetitions the peer needs (a loop
 * that is not stopped goes on): loopwatch must catch it (a warning at least), and break it where the peer
 * stops the run. A "not a loop" case must never be broken (one-phase `break`, two-phase `deny`/`stop`).
 *
 *   one-phase:  call -> check(event)          text -> checkText(text)   user -> freshStart()
 *   two-phase:  call -> propose() [-> record()]  text -> checkText(text)   user -> freshStart()
 *               (a call denied or stopped does not run, and the run ends there)
 */
import { LoopDetector, type LoopDetectorOptions } from '../../src/index.js';

/** One tool call of a case, and what it returned when it ran (peers that judge calls before they run have no outcome). */
export interface PeerCall {
  readonly kind: 'call';
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly result?: string;
  readonly error?: string;
}

/** A step of a case: a call, the agent's text outside tool calls, or a new message from the user. */
export type PeerStep = PeerCall | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'user' };

/** One test of a peer's suite, as loopwatch input. */
export interface PeerCase {
  /** The test it mirrors: `owner/repo path: "test name"`. */
  readonly mirrors: string;
  /** True when the peer's test says this is a loop (or stuck). */
  readonly loop: boolean;
  /** The peer stops the run on it (Gemini CLI, OpenHands): loopwatch must break it, not only warn. */
  readonly peerStops: boolean;
  readonly steps: readonly PeerStep[];
  /**
   * Where loopwatch answers otherwise today, and why (a loop missed or not broken, a legitimate sequence
   * broken): its test holds it to that answer, so a change either way is seen, and the summary counts it.
   */
  readonly differs?: { readonly phases: readonly Phase[]; readonly why: string };
}

/** A call step. */
export const call = (tool: string, args: Record<string, unknown> = {}, result?: string): PeerCall => ({ kind: 'call', tool, args, ...(result === undefined ? {} : { result }) });
/** A failed call step. */
export const fail = (tool: string, args: Record<string, unknown>, error: string): PeerCall => ({ kind: 'call', tool, args, error });
/** The agent's text, streamed outside tool calls. */
export const say = (text: string): PeerStep => ({ kind: 'text', text });
/** A new message from the user. */
export const user: PeerStep = { kind: 'user' };
/** `steps` `n` times over. */
export const times = (n: number, ...steps: PeerStep[]): PeerStep[] => Array.from({ length: n }, () => steps).flat();

/** What loopwatch did with a case. */
export interface PeerOutcome {
  /** A warning, an ask or a break at some step. */
  readonly caught: boolean;
  /** A break (one-phase), a deny or stop (two-phase), or a break on streamed text. */
  readonly broken: boolean;
  /** Step index and action of each verdict, for messages. */
  readonly actions: readonly string[];
}

/** The two ways a host uses loopwatch. */
export type Phase = 'one-phase' | 'two-phase';

/**
 * Replays a case in one-phase order (check after each call) or two-phase order (propose, then record),
 * with the built-in option values or `options` (the shipped default preset, say).
 */
export function replayCase(c: PeerCase, phase: Phase, options: LoopDetectorOptions = {}): PeerOutcome {
  const d = new LoopDetector({ ...options, sessionId: 'peer' });
  const actions: string[] = [];
  let broken = false;
  try {
    for (const [i, s] of c.steps.entries()) {
      if (s.kind === 'user') {
        d.freshStart();
        continue;
      }
      if (s.kind === 'text') {
        const v = d.checkText(s.text);
        if (v !== null) actions.push(`${i}:text-${v.action}`);
        if (v?.action === 'break') broken = true;
      } else if (phase === 'one-phase') {
        const v = d.check(outcomeOf(s));
        if (v !== null) actions.push(`${i}:${v.action}`);
        if (v?.action === 'break') broken = true;
      } else {
        const id = `c${i}`;
        const p = d.propose({ id, tool: s.tool, args: s.args });
        if (p.action !== 'allow') actions.push(`${i}:${p.action}`);
        if (p.action === 'deny' || p.action === 'stop') broken = true;
        else {
          const r = d.record({ id, ...outcomeOf(s) });
          if (r.action !== 'allow') actions.push(`${i}:record-${r.action}`);
        }
      }
      if (broken) break;
    }
  } finally {
    d.dispose();
  }
  return { caught: actions.length > 0, broken, actions };
}

function outcomeOf(s: PeerCall): { tool: string; args: Record<string, unknown>; result?: string; error?: string } {
  return { tool: s.tool, args: s.args, ...(s.error === undefined ? (s.result === undefined ? {} : { result: s.result }) : { error: s.error }) };
}

/** Tallies of one suite in one phase. */
export interface PeerTally {
  loops: number;
  caught: number;
  mustBreak: number;
  broke: number;
  legitimate: number;
  legitimateWarned: number;
  legitimateBroken: number;
}

/** Adds up what loopwatch did with every case of a suite. */
export function tally(cases: readonly PeerCase[], phase: Phase, options: LoopDetectorOptions = {}): PeerTally {
  const t: PeerTally = { loops: 0, caught: 0, mustBreak: 0, broke: 0, legitimate: 0, legitimateWarned: 0, legitimateBroken: 0 };
  for (const c of cases) {
    const o = replayCase(c, phase, options);
    if (c.loop) {
      t.loops++;
      if (o.caught) t.caught++;
      if (c.peerStops) {
        t.mustBreak++;
        if (o.broken) t.broke++;
      }
    } else {
      t.legitimate++;
      if (o.caught) t.legitimateWarned++;
      if (o.broken) t.legitimateBroken++;
    }
  }
  return t;
}

/** One line of the summary a suite's test prints. */
export function summaryLine(suite: string, phase: Phase, t: PeerTally): string {
  return `${suite} ${phase}: caught ${t.caught} of ${t.loops} loops, broke ${t.broke} of ${t.mustBreak} the peer stops; legitimate broken ${t.legitimateBroken} of ${t.legitimate} (warned ${t.legitimateWarned})`;
}


const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random letters and digits from `rand`. */
export function randomText(rand: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALNUM.charAt(Math.floor(rand() * ALNUM.length));
  return s;
}
