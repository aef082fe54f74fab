/**
 * The held-out figures of a fit: each run replayed (for real) with the options fitted without its fold,
 * its outcome counted per replay. Every figure is pooled over the folds (the counts added up) with its 95%
 * Wilson interval, and given with its spread over the folds (the lowest and highest fold's share; a fold
 * without such runs has none).
 *
 * - step-limit runs warned and broken (what detection should catch);
 * - finished runs broken (false alarms) and warned (noise on legitimate work);
 * - resolved runs broken (correct work destroyed), when the labels say which runs were resolved;
 * - calls saved, of all the calls of runs ended on a limit (pooled and spread, without an interval: the
 *   calls of one run are not independent trials).
 */
import { type Share, share } from '../eval/wilson.js';
import type { RunClass } from './objective.js';
import type { RunOutcome } from './simulate.js';

/** A share pooled over the folds, and its spread. */
export interface Figure extends Share {
  /** The lowest and highest share among the folds that have such runs (null: none has). */
  readonly min: number | null;
  readonly max: number | null;
}

/** The held-out figures of one replay. */
export interface ReplayFigures {
  readonly stepLimitWarned: Figure;
  readonly stepLimitBroken: Figure;
  readonly finishedBroken: Figure;
  readonly finishedWarned: Figure;
  /** Null when no label says whether its run was resolved. */
  readonly resolvedBroken: Figure | null;
  /** Calls saved, of the calls of runs ended on a limit. */
  readonly savedCalls: Figure;
}

/** A run as the held-out figures count it. */
export interface HeldOutRun {
  readonly fold: number;
  readonly cls: RunClass;
  readonly resolved: boolean | undefined;
  readonly calls: number;
}

type Pick = (r: HeldOutRun, o: RunOutcome) => readonly [number, number];

function figure(runs: readonly HeldOutRun[], outcomes: readonly RunOutcome[], folds: number, pick: Pick): Figure {
  const k = new Array<number>(folds).fill(0);
  const n = new Array<number>(folds).fill(0);
  runs.forEach((r, i) => {
    const [a, b] = pick(r, outcomes[i] as RunOutcome);
    k[r.fold] = (k[r.fold] as number) + a;
    n[r.fold] = (n[r.fold] as number) + b;
  });
  const rates = n.flatMap((of, f) => (of === 0 ? [] : [(k[f] as number) / of]));
  const total = share(k.reduce((x, y) => x + y, 0), n.reduce((x, y) => x + y, 0));
  return { ...total, min: rates.length === 0 ? null : Math.min(...rates), max: rates.length === 0 ? null : Math.max(...rates) };
}

const broken = (o: RunOutcome): number => (o.firstBreak === null ? 0 : 1);

/** The figures of one replay's outcomes (`outcomes[i]` of `runs[i]`) over `folds` folds. */
export function replayFigures(runs: readonly HeldOutRun[], outcomes: readonly RunOutcome[], folds: number): ReplayFigures {
  const f = (pick: Pick): Figure => figure(runs, outcomes, folds, pick);
  const anyResolved = runs.some((r) => r.resolved !== undefined);
  return {
    stepLimitWarned: f((r, o) => (r.cls.stuck ? [o.warned ? 1 : 0, 1] : [0, 0])),
    stepLimitBroken: f((r, o) => (r.cls.stuck ? [broken(o), 1] : [0, 0])),
    finishedBroken: f((r, o) => (r.cls.finished ? [broken(o), 1] : [0, 0])),
    finishedWarned: f((r, o) => (r.cls.finished ? [o.warned ? 1 : 0, 1] : [0, 0])),
    resolvedBroken: anyResolved ? f((r, o) => (r.resolved === true ? [broken(o), 1] : [0, 0])) : null,
    // calls of one run are not independent trials: no interval for them
    savedCalls: { ...f((r, o) => (r.cls.limit ? [o.saved, r.calls] : [0, 0])), low: null, high: null },
  };
}
