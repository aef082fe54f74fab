/**
 * What a fit maximises, and under which budgets. Runs are judged by their label:
 *
 * - *stuck*: `step_limit` runs (cut off by their step cap), which detection should break;
 * - *finished*: legitimate work, which a break would destroy and a warning disturbs: `submitted` runs and
 *   `interactive` sessions (a person's Claude Code or Codex session), except an interactive session
 *   labelled as holding a genuine loop (`loop: true`), which counts in neither;
 * - calls saved are counted in runs ended on a limit (`step_limit`, `exit_cost`, `exit_context`).
 *
 * The scalarisation is lexicographic. The budgets are hard, per replay: at most `maxFalseAlarms` of the
 * finished runs broken and at most `maxWarnings` of them warned. The replays a fit improves are those of
 * `Budget.scope` (the two-phase replay, as a live host checks each call before it runs; the one-phase
 * replay, as `scan` and `check()` see a run; or both); a replay outside the scope has no budget of its own
 * (calibrate.ts gives it 100%) unless the fit holds it to the starting point's own shares (`--hold-other`),
 * so it gets no worse.
 *
 * The false-alarm budget of a replay in the scope is a promise about runs the fit has not seen, so it is
 * met with a margin (`Budget.margin`, the z of a 95% interval): the share a point is held to is the Wilson
 * centre of its finished runs broken, `(k + z²/2) / (n + z²)`, not `k / n`. A fit chooses among thousands
 * of points by these counts, and the points that break the fewest of its own finished runs by chance do
 * worse on new ones: on the public traces, fits that spent a 1% budget on their folds' runs broke 1.14% of
 * the held-out finished runs. With the centre a fit on 985 finished runs may break 7 of them (0.71%), not
 * 9; on 200, none; on fewer than 189 even none is over a 1% budget, and a fit breaks as few as it can.
 * Among candidates within budget: more stuck runs broken
 * (in the scope's replays, summed), then more stuck runs warned, then more calls saved, then fewer
 * finished runs warned, then (outside the scope) fewer finished runs broken, then warned. A candidate over
 * budget is worse than any within it, and of two over budget the one that overshoots less (in shares of
 * finished runs, summed over the budgets and replays) is better, so a fit starting over budget walks back
 * into it.
 */
import { LIMIT_STATUSES } from '../eval/eval-row.js';
import { Z95 } from '../eval/wilson.js';

/** The exit status of a person's interactive session, judged as finished work. */
export const INTERACTIVE_STATUS = 'interactive';

/** How a label's run counts in a fit. */
export interface RunClass {
  readonly stuck: boolean;
  readonly finished: boolean;
  readonly limit: boolean;
}

/** The class of a run with exit status `status` (and `loop`, an interactive session holding a genuine loop). */
export function runClass(status: string, loop: boolean): RunClass {
  return {
    stuck: status === 'step_limit',
    finished: status === 'submitted' || (status === INTERACTIVE_STATUS && !loop),
    limit: LIMIT_STATUSES.includes(status),
  };
}

/** The counts of one replay over a set of runs. */
export interface ReplayTotals {
  stuck: number;
  stuckWarned: number;
  stuckBroken: number;
  finished: number;
  finishedWarned: number;
  finishedBroken: number;
  saved: number;
}

/** The counts of both replays. */
export interface Totals {
  readonly one: ReplayTotals;
  readonly two: ReplayTotals;
}

/** Empty counts. */
export function noTotals(): ReplayTotals {
  return { stuck: 0, stuckWarned: 0, stuckBroken: 0, finished: 0, finishedWarned: 0, finishedBroken: 0, saved: 0 };
}

/** Counts one run's outcome in `t`. */
export function addRun(t: ReplayTotals, c: RunClass, warned: boolean, broken: boolean, saved: number): void {
  if (c.stuck) {
    t.stuck++;
    if (warned) t.stuckWarned++;
    if (broken) t.stuckBroken++;
  }
  if (c.finished) {
    t.finished++;
    if (warned) t.finishedWarned++;
    if (broken) t.finishedBroken++;
  }
  if (c.limit) t.saved += saved;
}

/** The replays a fit improves: the two-phase one (live hosts), the one-phase one (`scan`, `check()`), or both. */
export type BudgetScope = 'two-phase' | 'one-phase' | 'both';

/** The scopes, as the CLI names them. */
export const BUDGET_SCOPES: readonly BudgetScope[] = ['two-phase', 'one-phase', 'both'];

/** The budgets, as shares of finished runs, per replay (one-phase, two-phase): broken and warned. */
export interface Budget {
  readonly maxFalseAlarms: readonly [number, number];
  readonly maxWarnings: readonly [number, number];
  /** The replays whose counts the objective maximises. */
  readonly scope: BudgetScope;
  /**
   * The z of the margin the false-alarm budgets of the scope's replays are met with (their finished runs
   * broken counted by their Wilson centre); 0 or absent: by their share. See the module comment.
   */
  readonly margin?: number | undefined;
}

/** The margin calibrate.ts gives a fit's false-alarm budget: the z of the 95% intervals it reports. */
export const BUDGET_MARGIN = Z95;

/** The share a budget counts `count` of `of` runs as: their Wilson centre with margin `z` (0: `count / of`). */
export function budgetShare(count: number, of: number, z = 0): number {
  return of === 0 ? 0 : (count + (z * z) / 2) / (of + z * z);
}

/** The most of `of` runs a budget of `share` allows with margin `z` (-1: not even none). */
export function budgetCount(share: number, of: number, z = 0): number {
  return of === 0 ? 0 : Math.floor(share * (of + z * z) - (z * z) / 2 + 1e-9);
}

/** Whether `scope` holds the one-phase (0) or the two-phase (1) replay. */
export function inScope(scope: BudgetScope, replay: 0 | 1): boolean {
  return scope === 'both' || scope === (replay === 0 ? 'one-phase' : 'two-phase');
}

const over = (count: number, of: number, share: number, z = 0): number => (of === 0 ? 0 : Math.max(0, budgetShare(count, of, z) - share - 1e-12));

/** The margin of `b`'s false-alarm budget of `replay` (only the scope's replays have one). */
export function marginOf(b: Budget, replay: 0 | 1): number {
  return inScope(b.scope, replay) ? (b.margin ?? 0) : 0;
}

/** How far `t` is over `budget` (0: within it). */
export function overshoot(t: Totals, b: Budget): number {
  return (
    over(t.one.finishedBroken, t.one.finished, b.maxFalseAlarms[0], marginOf(b, 0)) +
    over(t.two.finishedBroken, t.two.finished, b.maxFalseAlarms[1], marginOf(b, 1)) +
    over(t.one.finishedWarned, t.one.finished, b.maxWarnings[0]) +
    over(t.two.finishedWarned, t.two.finished, b.maxWarnings[1])
  );
}

/** `field` of the replays in `b`'s scope (`inside`) or outside it, summed. */
function sum(t: Totals, b: Budget, field: keyof ReplayTotals, inside: boolean): number {
  return (inScope(b.scope, 0) === inside ? t.one[field] : 0) + (inScope(b.scope, 1) === inside ? t.two[field] : 0);
}

/**
 * Whether `a` is strictly better than `b` under `budget` (see the module comment). `costA` and `costB`:
 * step-limit runs broken taken off each point's count before they are compared (the cost of the
 * parameters it moved, search.ts); of two equal after it, the one that costs less is better.
 */
export function better(a: Totals, b: Totals, budget: Budget, costA = 0, costB = 0): boolean {
  const oa = overshoot(a, budget);
  const ob = overshoot(b, budget);
  if (oa !== ob) return oa < ob;
  const gain = sum(a, budget, 'stuckBroken', true) - costA - (sum(b, budget, 'stuckBroken', true) - costB);
  if (gain !== 0) return gain > 0;
  if (costA !== costB) return costA < costB;
  // more is better in the scope's replays, then fewer finished runs warned in them, then fewer outside them
  const more: readonly (keyof ReplayTotals)[] = ['stuckWarned', 'saved'];
  for (const f of more) {
    const d = sum(a, budget, f, true) - sum(b, budget, f, true);
    if (d !== 0) return d > 0;
  }
  const da = sum(a, budget, 'finishedWarned', true) - sum(b, budget, 'finishedWarned', true);
  if (da !== 0) return da < 0;
  for (const f of ['finishedBroken', 'finishedWarned'] as const) {
    const d = sum(a, budget, f, false) - sum(b, budget, f, false);
    if (d !== 0) return d < 0;
  }
  return false;
}
