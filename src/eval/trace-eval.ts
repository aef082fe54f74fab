/**
 * Detection quality on the real traces: every session scanned exactly as `loopwatch scan` scans (the same
 * readers and pipeline), then judged against how the run ended. Per source (agent) and overall:
 *
 * - `step_limit` sessions flagged at warn or above, and at break (runs that were stuck until the limit);
 * - `submitted` sessions reaching break (false alarms: the agent finished);
 * - the median call index of the first break-level verdict;
 * - calls a break would have saved in runs that ended on a limit (step, cost or context).
 */
import { join } from 'node:path';
import { sessionChecker } from '../cli/scan/session-checker.js';
import { runScan } from '../cli/scan/scan-pipeline.js';
import type { SessionTally } from '../cli/scan/session-tally.js';
import { readInputs } from '../formats/read-inputs.js';
import type { TraceIssue } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { type SessionInfo, readSessions } from './trace-dir.js';

/** Exit statuses that mean the run was cut off by a limit rather than finishing. */
export const LIMIT_STATUSES: readonly string[] = ['step_limit', 'exit_cost', 'exit_context'];

/** The figures of one group of sessions. */
export interface EvalRow {
  readonly source: string;
  readonly sessions: number;
  readonly calls: number;
  readonly stepLimit: number;
  /** Share of `step_limit` sessions flagged at warn or above (null when there are none). */
  readonly stepLimitWarned: number | null;
  /** Share of `step_limit` sessions reaching break. */
  readonly stepLimitBroken: number | null;
  readonly submitted: number;
  /** Share of `submitted` sessions reaching break: false alarms. */
  readonly submittedBroken: number | null;
  /** Share of `submitted` sessions flagged at warn or above. */
  readonly submittedWarned: number | null;
  /** Median call index of the first break-level verdict, over sessions that reached break. */
  readonly medianFirstBreak: number | null;
  /** Calls after the first break in runs that ended on a limit. */
  readonly savedCalls: number;
  /** Calls of runs that ended on a limit. */
  readonly limitCalls: number;
}

/** One session as the evaluation saw it. */
export interface EvalSession {
  readonly session: string;
  readonly source: string;
  readonly exitStatus: string;
  readonly tally: SessionTally;
}

/** The evaluation. */
export interface TraceEval {
  readonly rows: readonly EvalRow[];
  readonly overall: EvalRow;
  readonly sessions: readonly EvalSession[];
  readonly issues: readonly TraceIssue[];
  readonly events: number;
  readonly millis: number;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  xs.sort((a, b) => a - b);
  const m = xs.length >> 1;
  return xs.length % 2 === 1 ? (xs[m] as number) : ((xs[m - 1] as number) + (xs[m] as number)) / 2;
}

const share = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** The figures of `group`, named `source`. */
export function evalRow(source: string, group: readonly EvalSession[]): EvalRow {
  let calls = 0;
  let stepLimit = 0;
  let stepLimitWarned = 0;
  let stepLimitBroken = 0;
  let submitted = 0;
  let submittedWarned = 0;
  let submittedBroken = 0;
  let savedCalls = 0;
  let limitCalls = 0;
  const firstBreaks: number[] = [];
  for (const { exitStatus, tally } of group) {
    calls += tally.calls;
    const warned = tally.reached('warn');
    const broken = tally.reached('break');
    if (tally.firstBreak !== null) firstBreaks.push(tally.firstBreak);
    if (exitStatus === 'step_limit') {
      stepLimit++;
      if (warned) stepLimitWarned++;
      if (broken) stepLimitBroken++;
    } else if (exitStatus === 'submitted') {
      submitted++;
      if (warned) submittedWarned++;
      if (broken) submittedBroken++;
    }
    if (LIMIT_STATUSES.includes(exitStatus)) {
      limitCalls += tally.calls;
      savedCalls += tally.wastedCalls;
    }
  }
  return {
    source,
    sessions: group.length,
    calls,
    stepLimit,
    stepLimitWarned: share(stepLimitWarned, stepLimit),
    stepLimitBroken: share(stepLimitBroken, stepLimit),
    submitted,
    submittedBroken: share(submittedBroken, submitted),
    submittedWarned: share(submittedWarned, submitted),
    medianFirstBreak: median(firstBreaks),
    savedCalls,
    limitCalls,
  };
}

/** Scans the traces in `dir` with `options` (in this thread unless `workers` > 0) and evaluates them. */
export async function evaluateTraces(dir: string, options: LoopDetectorOptions = {}, workers = 0): Promise<TraceEval> {
  const info = readSessions(dir);
  const issues: TraceIssue[] = [];
  const checker = sessionChecker(options, workers, 100_000);
  const tallies: SessionTally[] = [];
  let totals;
  try {
    const sink = { verdict: () => undefined, issue: (i: TraceIssue) => issues.push(i), sessionDone: (_r: unknown, t: SessionTally) => tallies.push(t) };
    totals = await runScan(readInputs([join(dir, 'events.jsonl.gz')]), checker, { minAction: 'warn', maxLive: 100_000, batchSize: 1024 }, sink);
  } finally {
    await checker.close();
  }
  tallies.sort((a, b) => a.seq - b.seq);
  const sessions: EvalSession[] = tallies.map((tally) => {
    const meta: SessionInfo | undefined = info.get(tally.session);
    return { session: tally.session, source: meta?.agent ?? 'unlisted', exitStatus: meta?.exit_status ?? 'unlisted', tally };
  });
  const bySource = new Map<string, EvalSession[]>();
  for (const s of sessions) {
    let g = bySource.get(s.source);
    if (g === undefined) bySource.set(s.source, (g = []));
    g.push(s);
  }
  const rows = [...bySource].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([source, g]) => evalRow(source, g));
  return { rows, overall: evalRow('all', sessions), sessions, issues, events: totals.events, millis: totals.millis };
}
