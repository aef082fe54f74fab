/**
 * Verdicts as comparable text, and the reference every many-session runner is held to: one LoopDetector
 * per session.
 */
import { LoopDetector } from '../../src/index.js';
import type { SessionMode } from '../../src/session/loop-detector.js';
import type { LoopDetectorOptions, SessionEvent, ToolEvent, Verdict } from '../../src/index.js';

/** The two engines every policy test runs on, which must agree. */
export const ENGINES = ['wasm', 'reference'] as const;

/** One of {@link ENGINES}. */
export type Engine = (typeof ENGINES)[number];

/** What one LoopDetector (made with `options`, and `mode`: say `{ checksOnly: true }`) says of each event in turn. */
export function verdictsOf(events: readonly ToolEvent[], options: LoopDetectorOptions = {}, mode?: SessionMode): (Verdict | null)[] {
  const d = new LoopDetector(options, undefined, mode);
  try {
    return events.map((e) => d.check(e));
  } finally {
    d.dispose();
  }
}

/** Each verdict's action, `-` where there was none. */
export const actionsOf = (vs: readonly (Verdict | null)[]): string[] => vs.map((v) => v?.action ?? '-');

/** A verdict, null or per-call Error as JSON text (errors as `Name: message`). */
export const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x instanceof Error ? `${x.name}: ${x.message}` : x));

/** What a LoopDetector per session (made with `options`) says, event by event, as json() text. */
export function perSession(events: readonly SessionEvent[], options: LoopDetectorOptions = {}): string[] {
  const ds = new Map<string, LoopDetector>();
  const out = events.map((e) => {
    let d = ds.get(e.session);
    if (d === undefined) ds.set(e.session, (d = new LoopDetector(options, e.session)));
    return json(d.check(e));
  });
  for (const d of ds.values()) d.dispose();
  return out;
}

/** The actions at warn or above that one-phase checks (`check`) of `events` give, in order. */
export const flaggedActions = (events: readonly ToolEvent[], engine: Engine): string[] => actionsOf(verdictsOf(events, { engine })).filter((a) => a !== '-');

/** The positions of `events` at which `engine` gives a dead end's verdict. */
export const deadEndsAt = (events: readonly ToolEvent[], engine: Engine): number[] =>
  verdictsOf(events, { engine }).flatMap((v, i) => (v?.kind === 'dead_end' ? [i] : []));

/** How {@link liveActions} goes on after a blocked call, and how it names the actions. */
export interface LiveReplayOptions {
  /** 'skip' (default): the blocked call is not recorded and the next one is proposed; 'end': the replay ends. */
  afterBlock?: 'skip' | 'end';
  /** Each action as `P<i>:<action>` (proposal) or `R<i>:<action>` (record) rather than bare. */
  labelled?: boolean;
  /** The LoopDetector's options (its `engine` is the replay's); the library defaults without. */
  detector?: LoopDetectorOptions;
  /** Give each call's `round` at its proposal too (without: the proposal carries tool, args and id only). */
  roundAtProposal?: boolean;
}

/**
 * The actions other than allow of a two-phase replay of `events`: each call proposed (`propose`), then
 * recorded with its outcome (`record`) unless it was blocked.
 */
export function liveActions(events: readonly ToolEvent[], engine: Engine, options: LiveReplayOptions = {}): string[] {
  const d = new LoopDetector({ ...options.detector, engine });
  const out: string[] = [];
  const name = (phase: string, i: number, action: string): string => (options.labelled === true ? `${phase}${i}:${action}` : action);
  try {
    for (const [i, e] of events.entries()) {
      const round = options.roundAtProposal === true && e.round !== undefined ? { round: e.round } : {};
      const p = d.propose({ tool: e.tool, args: e.args, id: `c${i}`, ...round });
      if (p.action !== 'allow') out.push(name('P', i, p.action));
      if (p.action === 'deny' || p.action === 'stop') {
        if (options.afterBlock === 'end') break;
        continue;
      }
      const r = d.record({ ...e, id: `c${i}` });
      if (r.action !== 'allow') out.push(name('R', i, r.action));
    }
  } finally {
    d.dispose();
  }
  return out;
}
