/**
 * Scoring a scan against the fleet's truth, as plain data.
 *
 * A session is *flagged* when it has a verdict at `minAction` or above; its *first* verdict decides:
 * - on a session with an injected loop, a first verdict at or after `startIndex - slack` is a true
 *   positive; an earlier one fired on the ordinary work before the loop: a false positive (`early`);
 * - on a clean session any flag is a false positive, counted against its legitimate pattern.
 * An injected loop is *caught* when some verdict falls at or after `startIndex - slack` (an early false
 * flag does not prevent it); its *delay* is that verdict's index minus `startIndex`.
 * Precision is true positives over flagged sessions; recall is caught over injected sessions.
 */
import type { LoopAction, LoopKind } from '../../types.js';
import type { FleetVerdicts, ScanVerdict } from './scan.js';
import { INJECTED_KINDS, LEGIT_PATTERNS, type LegitPattern, type SessionTruth } from './truth.js';

/** How verdicts are read. */
export interface ScoreOptions {
  /** Calls before a loop's start where a verdict still counts as catching it. Minimum 0. @default 2 */
  readonly slack?: number;
  /** Lowest action that counts as a flag. @default 'warn' */
  readonly minAction?: LoopAction;
}

/** Default scoring options. */
export const SCORE_DEFAULTS: Required<ScoreOptions> = Object.freeze({ slack: 2, minAction: 'warn' });

const RANK: Readonly<Record<LoopAction, number>> = { warn: 1, ask: 2, break: 3 };

/** What the verdicts say about one session. */
export interface SessionJudgement {
  readonly flagged: boolean;
  /** Kind of the first verdict, or null. */
  readonly firstKind: LoopKind | null;
  /** The first verdict is on the injected loop (false on clean sessions). */
  readonly truePositive: boolean;
  /** Some verdict falls on the injected loop (false on clean sessions). */
  readonly caught: boolean;
  /** Kind of the first verdict on the loop, or null. */
  readonly caughtKind: LoopKind | null;
  /** Calls from the loop's start to the first verdict on it, or null. */
  readonly delay: number | null;
}

/** Judges one session's verdicts against its truth. */
export function judgeSession(truth: SessionTruth, verdicts: readonly ScanVerdict[], options: ScoreOptions = {}): SessionJudgement {
  const { slack, minAction } = { ...SCORE_DEFAULTS, ...options };
  const counted = verdicts.filter((v) => RANK[v.action] >= RANK[minAction]).sort((a, b) => a.index - b.index);
  const first = counted[0];
  const from = truth.injected === null ? Infinity : truth.injected.startIndex - slack;
  const hit = counted.find((v) => v.index >= from);
  return {
    flagged: first !== undefined,
    firstKind: first?.kind ?? null,
    truePositive: first !== undefined && first.index >= from,
    caught: hit !== undefined,
    caughtKind: hit?.kind ?? null,
    delay: hit === undefined || truth.injected === null ? null : hit.index - truth.injected.startIndex,
  };
}

/** Recall and delay for one injected kind (or all of them, `kind: 'all'`). */
export interface KindRecall {
  readonly kind: LoopKind | 'all';
  readonly injected: number;
  readonly caught: number;
  /** caught / injected, or null when none was injected. */
  readonly recall: number | null;
  /** Caught loops whose first verdict on the loop is of the injected kind. */
  readonly sameKind: number;
  /** Sessions flagged before their loop started (false positives). */
  readonly early: number;
  /** Median of the delays of the caught loops, or null. */
  readonly medianDelay: number | null;
}

/** Precision of first verdicts of one kind (or of all, `kind: 'all'`). */
export interface VerdictPrecision {
  readonly kind: LoopKind | 'all';
  readonly flagged: number;
  readonly truePositives: number;
  readonly falsePositives: number;
  /** truePositives / flagged, or null when nothing was flagged. */
  readonly precision: number | null;
}

/** False positives on the clean sessions of one legitimate pattern (`plain`: plain work). */
export interface LegitFalsePositives {
  readonly pattern: LegitPattern | 'plain';
  readonly sessions: number;
  readonly flagged: number;
  /** flagged / sessions, or null when there is no such session. */
  readonly rate: number | null;
  /** Sessions with a break-level verdict: runs the default policy would have stopped. */
  readonly broken: number;
  /** How many flags of each verdict kind. */
  readonly byKind: Readonly<Record<string, number>>;
}

/** The score of a scan. */
export interface FleetScore {
  readonly sessions: number;
  readonly slack: number;
  readonly minAction: LoopAction;
  /** Per injected kind, in {@link INJECTED_KINDS} order, then `all`. */
  readonly recall: readonly KindRecall[];
  /** Per kind of first verdict (injected kinds' order, then others by name), then `all`. */
  readonly precision: readonly VerdictPrecision[];
  /** Per legitimate pattern, in {@link LEGIT_PATTERNS} order, then `plain`. */
  readonly legit: readonly LegitFalsePositives[];
}

/** The median of some numbers, or null when there are none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** Scores the verdicts of each session (by id; a session missing has none) against the sessions' truth. */
export function scoreFleet(truth: Iterable<SessionTruth>, verdicts: FleetVerdicts | Readonly<Record<string, readonly ScanVerdict[]>>, options: ScoreOptions = {}): FleetScore {
  const o = { ...SCORE_DEFAULTS, ...options };
  const lookup = verdicts instanceof Map ? (id: string) => verdicts.get(id) : (id: string) => (verdicts as Readonly<Record<string, readonly ScanVerdict[]>>)[id];
  const rec = new Map<string, { injected: number; caught: number; same: number; early: number; delays: number[] }>();
  const prec = new Map<string, { flagged: number; tp: number }>();
  const leg = new Map<string, { sessions: number; flagged: number; broken: number; byKind: Record<string, number> }>();
  for (const k of [...INJECTED_KINDS, 'all']) rec.set(k, { injected: 0, caught: 0, same: 0, early: 0, delays: [] });
  for (const p of [...LEGIT_PATTERNS, 'plain']) leg.set(p, { sessions: 0, flagged: 0, broken: 0, byKind: {} });
  prec.set('all', { flagged: 0, tp: 0 });
  let sessions = 0;
  for (const t of truth) {
    sessions++;
    const j = judgeSession(t, lookup(t.session) ?? [], o);
    if (j.flagged) {
      for (const k of [j.firstKind as string, 'all']) {
        const p = prec.get(k) ?? { flagged: 0, tp: 0 };
        p.flagged++;
        if (j.truePositive) p.tp++;
        prec.set(k, p);
      }
    }
    if (t.injected === null) {
      const l = leg.get(t.legit ?? 'plain') ?? { sessions: 0, flagged: 0, broken: 0, byKind: {} };
      l.sessions++;
      if ((lookup(t.session) ?? []).some((v: ScanVerdict) => v.action === 'break')) l.broken++;
      if (j.flagged) {
        l.flagged++;
        l.byKind[j.firstKind as string] = (l.byKind[j.firstKind as string] ?? 0) + 1;
      }
      leg.set(t.legit ?? 'plain', l);
      continue;
    }
    for (const k of [t.injected.kind as string, 'all']) {
      const r = rec.get(k) ?? { injected: 0, caught: 0, same: 0, early: 0, delays: [] };
      r.injected++;
      if (j.flagged && !j.truePositive) r.early++;
      if (j.caught) {
        r.caught++;
        r.delays.push(j.delay as number);
        if (j.caughtKind === t.injected.kind) r.same++;
      }
      rec.set(k, r);
    }
  }
  const known: readonly string[] = INJECTED_KINDS;
  const order = (k: string) => (k === 'all' ? known.length + 1 : known.includes(k) ? known.indexOf(k) : known.length);
  return {
    sessions,
    slack: o.slack,
    minAction: o.minAction,
    recall: [...rec].map(([kind, r]) => ({ kind, injected: r.injected, caught: r.caught, recall: ratio(r.caught, r.injected), sameKind: r.same, early: r.early, medianDelay: median(r.delays) })),
    precision: [...prec]
      .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
      .map(([kind, p]) => ({ kind, flagged: p.flagged, truePositives: p.tp, falsePositives: p.flagged - p.tp, precision: ratio(p.tp, p.flagged) })),
    legit: [...leg].map(([pattern, l]) => ({ pattern: pattern as LegitPattern | 'plain', sessions: l.sessions, flagged: l.flagged, rate: ratio(l.flagged, l.sessions), broken: l.broken, byKind: l.byKind })),
  };
}
