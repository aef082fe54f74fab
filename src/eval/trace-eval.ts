/**
 * The one-phase replay of an evaluation: every run scanned exactly as `loopwatch scan` scans it (the same
 * readers and pipeline, each call checked after it ran, with its outcome), then judged against its label.
 * A run is *warned* when a verdict reached warn or above, *broken* when one reached break; the calls
 * after the first break are the calls a break would have saved.
 */
import { sessionChecker } from '../cli/scan/session-checker.js';
import { runScan } from '../cli/scan/scan-pipeline.js';
import type { SessionTally } from '../cli/scan/session-tally.js';
import { readInputBatches } from '../formats/read-inputs.js';
import type { TraceIssue, TraceNote } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { JudgedRun } from './eval-row.js';

/** What a label says of a run: its agent, family and exit status; undefined for a run without a label. */
export type RunJudge = (session: string) => { readonly agent: string | undefined; readonly family: string; readonly exitStatus: string; readonly loop: boolean; readonly resolved?: boolean } | undefined;

/** The runs of one replay: judged, and those without a label. */
export interface Replay {
  readonly runs: readonly JudgedRun[];
  /** Runs no label names (session ids, in reading order). */
  readonly unlabelled: readonly string[];
  readonly issues: readonly TraceIssue[];
  /** Parts of inputs passed over on purpose (one-phase replay only). */
  readonly notes?: readonly TraceNote[];
  readonly calls: number;
  readonly millis: number;
}

/** Scans `inputs` with `options` (in this thread unless `workers` > 0) and judges each run. */
export async function replayOnePhase(inputs: readonly string[], options: LoopDetectorOptions, judge: RunJudge, workers = 0): Promise<Replay> {
  const issues: TraceIssue[] = [];
  const notes: TraceNote[] = [];
  const checker = sessionChecker(options, workers, 100_000);
  const tallies: SessionTally[] = [];
  let totals;
  try {
    const sink = { verdict: () => undefined, issue: (i: TraceIssue) => issues.push(i), note: (n: TraceNote) => notes.push(n), sessionDone: (_r: unknown, t: SessionTally) => tallies.push(t) };
    totals = await runScan(readInputBatches(inputs), checker, { minAction: 'warn', maxLive: 100_000, batchSize: 1024 }, sink);
  } finally {
    await checker.close();
  }
  tallies.sort((a, b) => a.seq - b.seq);
  const runs: JudgedRun[] = [];
  const unlabelled: string[] = [];
  for (const t of tallies) {
    const label = judge(t.session);
    if (label === undefined) {
      unlabelled.push(t.session);
      continue;
    }
    runs.push({
      session: t.session,
      file: t.file,
      ...label,
      calls: t.calls,
      warned: t.reached('warn'),
      firstBreak: t.firstBreak,
      first: t.first === null ? null : { kind: t.first.kind, index: t.first.index },
      saved: t.wastedCalls,
    });
  }
  return { runs, unlabelled, issues, notes, calls: totals.events, millis: totals.millis };
}
