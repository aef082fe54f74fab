/**
 * What a fit maximises, and under which budgets. Runs are judged by their label:
 *
 * - *stuck*: `step_limit` runs (cut off by their step cap), which detection should break;
 * - *finished*: legitimate work, which a break would destroy and a warning disturbs: `submitted` runs and
 *   `interactive` sessions (a person's Claude Code or Codex session), except an interactive session
 *   labelled as holding a genuine loop (`loop: true`), which counts in neither;
 * - calls saved are counted in runs ended on a limit (`step_limit`, `exit_cost`, `exit_context`).
 *
 * The scalarisation is lexicographic. The budgets are hard: in both replays (one-phase and two-phase), at
 * most `maxFalseAlarms` of the finished runs broken and at most `maxWarnings` of them warned. Among
 * candidates within budget: more stuck runs broken (one-phase and two-phase summed), then more calls
 * saved (summed), then fewer finished runs warned (summed). A candidate over budget is worse than any
 * within it, and of two over budget the one that overshoots less (in shares of finished runs, summed over
 * the budgets and replays) is better, so a fit starting over budget walks back into it.
 */
import { LIMIT_STATUSES } from '../eval/eval-row.js';

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

/** The budgets, as shares of finished runs: broken (both replays) and warned (one-phase, two-phase). */
export interface Budget {
  readonly maxFalseAlarms: number;
  readonly maxWarnings: readonly [number, number];
}

const over = (count: number, of: number, share: number): number => (of === 0 ? 0 : Math.max(0, count / of - share - 1e-12));

/** How far `t` is over `budget` (0: within it). */
export function overshoot(t: Totals, b: Budget): number {
  return (
    over(t.one.finishedBroken, t.one.finished, b.maxFalseAlarms) +
    over(t.two.finishedBroken, t.two.finished, b.maxFalseAlarms) +
    over(t.one.finishedWarned, t.one.finished, b.maxWarnings[0]) +
    over(t.two.finishedWarned, t.two.finished, b.maxWarnings[1])
  );
}

/** Whether `a` is strictly better than `b` under `budget` (see the module comment). */
export function better(a: Totals, b: Totals, budget: Budget): boolean {
  const oa = overshoot(a, budget);
  const ob = overshoot(b, budget);
  if (oa !== ob) return oa < ob;
  const ka = a.one.stuckBroken + a.two.stuckBroken;
  const kb = b.one.stuckBroken + b.two.stuckBroken;
  if (ka !== kb) return ka > kb;
  const sa = a.one.saved + a.two.saved;
  const sb = b.one.saved + b.two.saved;
  if (sa !== sb) return sa > sb;
  return a.one.finishedWarned + a.two.finishedWarned < b.one.finishedWarned + b.two.finishedWarned;
}
