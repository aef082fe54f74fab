/**
 * Detection quality on the real traces replayed in two-phase order, as a live host would see them: each
 * call proposed before it runs (LoopEngine.propose), then recorded with its outcome (record). Per source
 * and overall, beside the one-phase evaluation (trace-eval.ts):
 *
 * - a session is *warned* when a decision showed the model a message (a proposal warned, asked or
 *   blocked, or a record added a message to a result);
 * - it *breaks* at its first blocked proposal (deny or stop): the call would not have run, and the run
 *   would have been stopped or turned. The replay of a session ends there, since what the agent did next
 *   is not in the trace; calls from there on are the calls a break would have saved.
 */
import { join } from 'node:path';
import { LoopEngine } from '../engine/loop-engine.js';
import { readInputs } from '../formats/read-inputs.js';
import type { TraceIssue } from '../formats/trace-record.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { LIMIT_STATUSES } from './trace-eval.js';
import { type SessionInfo, readSessions } from './trace-dir.js';

/** One session's two-phase replay. */
export interface TwoPhaseSession {
  readonly session: string;
  readonly source: string;
  readonly exitStatus: string;
  /** Calls in the trace. */
  calls: number;
  /** Whether a decision showed the model a message. */
  warned: boolean;
  /** Index of the first blocked proposal, or null. */
  firstBlock: number | null;
}

/** The two-phase figures of one group of sessions (shares null when the group has none of that status). */
export interface TwoPhaseRow {
  readonly source: string;
  readonly sessions: number;
  readonly stepLimit: number;
  readonly stepLimitWarned: number | null;
  readonly stepLimitBroken: number | null;
  readonly submitted: number;
  readonly submittedWarned: number | null;
  readonly submittedBroken: number | null;
  /** Calls from the first block on, in runs that ended on a limit, of all their calls. */
  readonly savedCalls: number;
  readonly limitCalls: number;
}

/** The two-phase evaluation. */
export interface TwoPhaseEval {
  readonly rows: readonly TwoPhaseRow[];
  readonly overall: TwoPhaseRow;
  readonly sessions: readonly TwoPhaseSession[];
  readonly issues: readonly TraceIssue[];
  readonly calls: number;
  readonly millis: number;
}

const share = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** The figures of `group`, named `source`. */
export function twoPhaseRow(source: string, group: readonly TwoPhaseSession[]): TwoPhaseRow {
  let stepLimit = 0;
  let stepLimitWarned = 0;
  let stepLimitBroken = 0;
  let submitted = 0;
  let submittedWarned = 0;
  let submittedBroken = 0;
  let savedCalls = 0;
  let limitCalls = 0;
  for (const s of group) {
    const broken = s.firstBlock !== null;
    if (s.exitStatus === 'step_limit') {
      stepLimit++;
      if (s.warned) stepLimitWarned++;
      if (broken) stepLimitBroken++;
    } else if (s.exitStatus === 'submitted') {
      submitted++;
      if (s.warned) submittedWarned++;
      if (broken) submittedBroken++;
    }
    if (LIMIT_STATUSES.includes(s.exitStatus)) {
      limitCalls += s.calls;
      if (s.firstBlock !== null) savedCalls += s.calls - s.firstBlock;
    }
  }
  return {
    source,
    sessions: group.length,
    stepLimit,
    stepLimitWarned: share(stepLimitWarned, stepLimit),
    stepLimitBroken: share(stepLimitBroken, stepLimit),
    submitted,
    submittedWarned: share(submittedWarned, submitted),
    submittedBroken: share(submittedBroken, submitted),
    savedCalls,
    limitCalls,
  };
}

/** Replays the traces in `dir` in two-phase order with `options` and evaluates them. */
export async function evaluateTwoPhase(dir: string, options: LoopDetectorOptions = {}): Promise<TwoPhaseEval> {
  const started = performance.now();
  const info = readSessions(dir);
  const issues: TraceIssue[] = [];
  const engine = new LoopEngine({ ...options, maxSessions: 100_000, idleTtlMs: 0 });
  const sessions = new Map<string, TwoPhaseSession>();
  let calls = 0;
  try {
    for await (const item of readInputs([join(dir, 'events.jsonl.gz')])) {
      if (item.kind === 'issue') issues.push(item);
      if (item.kind !== 'call') continue;
      calls++;
      let s = sessions.get(item.session);
      if (s === undefined) {
        const meta: SessionInfo | undefined = info.get(item.session);
        s = { session: item.session, source: meta?.agent ?? 'unlisted', exitStatus: meta?.exit_status ?? 'unlisted', calls: 0, warned: false, firstBlock: null };
        sessions.set(item.session, s);
      }
      const index = s.calls++;
      if (s.firstBlock !== null) continue; // the run would have turned here: the rest is not replayed
      const e = item.event;
      const id = `call-${index}`;
      const p = engine.propose(item.session, { ...e, id });
      if (p.action !== 'allow') s.warned = true;
      if (p.action === 'deny' || p.action === 'stop') {
        s.firstBlock = index;
        engine.end(item.session);
        continue;
      }
      const r = engine.record(item.session, { ...e, id });
      if (r.action !== 'allow') s.warned = true;
    }
  } finally {
    engine.close();
  }
  const all = [...sessions.values()];
  const bySource = new Map<string, TwoPhaseSession[]>();
  for (const s of all) {
    let g = bySource.get(s.source);
    if (g === undefined) bySource.set(s.source, (g = []));
    g.push(s);
  }
  const rows = [...bySource].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([source, g]) => twoPhaseRow(source, g));
  return { rows, overall: twoPhaseRow('all', all), sessions: all, issues, calls, millis: performance.now() - started };
}
