/**
 * The figures of a group of judged runs, the same for one-phase and two-phase replays:
 *
 * - `step_limit` runs warned (a message shown at some point) and broken (a break: the run would have
 *   been stopped or turned): runs stuck until their step cap, which detection should catch;
 * - `submitted` runs warned and broken: runs the agent finished, which a break would have destroyed;
 * - `interactive` sessions warned and broken: a person's session (Claude Code, Codex, ...), ordinary work
 *   where every break is a false alarm and every warning a cost (noise in the model's context); sessions
 *   labelled as holding a genuine loop are counted apart (they should be warned or broken);
 * - the median call index of the first break;
 * - calls a break would have saved in runs ended on a limit (step, cost or context), of all their calls.
 * Every share comes with its 95% Wilson interval.
 */
import { type Share, share } from './wilson.js';

/** Exit statuses that mean the run was cut off by a limit rather than finishing. */
export const LIMIT_STATUSES: readonly string[] = ['step_limit', 'exit_cost', 'exit_context'];

/** The exit status of a person's interactive session: judged like finished work, warnings counted as a cost. */
export const INTERACTIVE = 'interactive';

/** The exit statuses some figure counts; a run labelled otherwise is replayed and counted, in no share. */
export const JUDGED_STATUSES: readonly string[] = ['submitted', ...LIMIT_STATUSES, INTERACTIVE];

/** One run as an evaluation judged it. */
export interface JudgedRun {
  readonly session: string;
  readonly file: string;
  readonly agent: string | undefined;
  readonly family: string;
  readonly exitStatus: string;
  /** Whether the label says the run holds a genuine loop (an interactive session that should be flagged). */
  readonly loop: boolean;
  /** Whether the label says the run's work was correct; undefined when it does not say. */
  readonly resolved?: boolean;
  /** Calls in the run. */
  readonly calls: number;
  /** Whether the model was shown a message (a verdict at warn or above). */
  readonly warned: boolean;
  /** Index of the first break (or blocked call), or null. */
  readonly firstBreak: number | null;
  /** The first verdict: its kind and the call it came at, or null. */
  readonly first: { readonly kind: string; readonly index: number } | null;
  /** Calls from the first break on (one-phase: after it; two-phase: from the blocked call). */
  readonly saved: number;
}

/** The figures of one group of runs. */
export interface EvalRow {
  readonly group: string;
  readonly sessions: number;
  readonly calls: number;
  readonly stepLimitWarned: Share;
  readonly stepLimitBroken: Share;
  readonly submittedWarned: Share;
  readonly submittedBroken: Share;
  /** `interactive` sessions that were shown a message (a cost on ordinary work). */
  readonly interactiveWarned: Share;
  /** `interactive` sessions broken (each a false alarm). */
  readonly interactiveBroken: Share;
  /** `interactive` sessions labelled as genuine loops that were warned (kept out of the two shares above). */
  readonly interactiveLoopWarned: Share;
  /** `interactive` sessions labelled as genuine loops that were broken. */
  readonly interactiveLoopBroken: Share;
  /** Runs labelled resolved (correct work, whatever their exit) that were broken: work a break would have destroyed. */
  readonly resolvedBroken: Share;
  /** `submitted` runs labelled resolved that were broken. */
  readonly resolvedSubmittedBroken: Share;
  /** Median call index of the first break, over runs that reached one. */
  readonly medianFirstBreak: number | null;
  readonly savedCalls: number;
  readonly limitCalls: number;
}

/** Per-group rows (sorted by name) and the row of every run. */
export interface EvalTable {
  readonly rows: readonly EvalRow[];
  readonly overall: EvalRow;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  xs.sort((a, b) => a - b);
  const m = xs.length >> 1;
  return xs.length % 2 === 1 ? (xs[m] as number) : ((xs[m - 1] as number) + (xs[m] as number)) / 2;
}

/** The figures of `runs`, named `group`. */
export function evalRow(group: string, runs: readonly JudgedRun[]): EvalRow {
  let calls = 0;
  let stepLimit = 0;
  let slWarned = 0;
  let slBroken = 0;
  let submitted = 0;
  let subWarned = 0;
  let subBroken = 0;
  let interactive = 0;
  let intWarned = 0;
  let intBroken = 0;
  let loops = 0;
  let loopWarned = 0;
  let loopBroken = 0;
  let savedCalls = 0;
  let limitCalls = 0;
  let resolved = 0;
  let resBroken = 0;
  let resSubmitted = 0;
  let resSubBroken = 0;
  const firstBreaks: number[] = [];
  for (const r of runs) {
    calls += r.calls;
    const broken = r.firstBreak !== null;
    if (broken) firstBreaks.push(r.firstBreak);
    if (r.exitStatus === 'step_limit') {
      stepLimit++;
      if (r.warned) slWarned++;
      if (broken) slBroken++;
    } else if (r.exitStatus === 'submitted') {
      submitted++;
      if (r.warned) subWarned++;
      if (broken) subBroken++;
    } else if (r.exitStatus === INTERACTIVE && r.loop) {
      loops++;
      if (r.warned) loopWarned++;
      if (broken) loopBroken++;
    } else if (r.exitStatus === INTERACTIVE) {
      interactive++;
      if (r.warned) intWarned++;
      if (broken) intBroken++;
    }
    if (r.resolved === true) {
      resolved++;
      if (broken) resBroken++;
      if (r.exitStatus === 'submitted') resSubmitted++;
      if (r.exitStatus === 'submitted' && broken) resSubBroken++;
    }
    if (LIMIT_STATUSES.includes(r.exitStatus)) {
      limitCalls += r.calls;
      savedCalls += r.saved;
    }
  }
  return {
    group,
    sessions: runs.length,
    calls,
    stepLimitWarned: share(slWarned, stepLimit),
    stepLimitBroken: share(slBroken, stepLimit),
    submittedWarned: share(subWarned, submitted),
    submittedBroken: share(subBroken, submitted),
    interactiveWarned: share(intWarned, interactive),
    interactiveBroken: share(intBroken, interactive),
    interactiveLoopWarned: share(loopWarned, loops),
    interactiveLoopBroken: share(loopBroken, loops),
    resolvedBroken: share(resBroken, resolved),
    resolvedSubmittedBroken: share(resSubBroken, resSubmitted),
    medianFirstBreak: median(firstBreaks),
    savedCalls,
    limitCalls,
  };
}

/** The rows of `runs` grouped by `key`, and the overall row. */
export function evalTable(runs: readonly JudgedRun[], key: (r: JudgedRun) => string): EvalTable {
  const groups = new Map<string, JudgedRun[]>();
  for (const r of runs) {
    const k = key(r);
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = []));
    g.push(r);
  }
  const rows = [...groups].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k, g]) => evalRow(k, g));
  return { rows, overall: evalRow('all', runs) };
}
