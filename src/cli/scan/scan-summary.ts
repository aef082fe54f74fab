/**
 * The scan's summary, as data: sessions, calls, sessions flagged per loop kind and per action, calls spent
 * after the first break-level verdict, the top looping tools and the worst sessions. The JSON output and
 * the terminal report are both made from it.
 */
import type { LoopAction } from '../../types.js';
import type { ScanTotals } from './scan-pipeline.js';
import { ACTION_RANK, type FirstVerdict, type SessionTally } from './session-tally.js';

/** One session, as the report lists it. */
export interface SessionReport {
  readonly session: string;
  readonly file: string;
  readonly calls: number;
  /** Reported verdicts. */
  readonly verdicts: number;
  /** Highest reported action, or null. */
  readonly worstAction: LoopAction | null;
  /** Loop kinds of its reported verdicts, most frequent first. */
  readonly kinds: readonly string[];
  readonly firstVerdict: FirstVerdict | null;
  /** Index of the first break-level verdict, or null. */
  readonly firstBreak: number | null;
  /** Calls after the first break-level verdict. */
  readonly wastedCalls: number;
  /** Calls the checker refused. */
  readonly failedCalls: number;
}

/** The summary of a scan. */
export interface ScanSummary {
  readonly sessions: number;
  readonly events: number;
  /** Sessions with a reported verdict. */
  readonly flaggedSessions: number;
  /** Sessions with a reported verdict of each loop kind. */
  readonly byKind: Readonly<Record<string, number>>;
  /** Sessions by the highest action reported. */
  readonly byAction: Readonly<Record<LoopAction, number>>;
  /** Calls made after the first break-level verdict, over all sessions. */
  readonly wastedCalls: number;
  readonly eventsPerSecond: number;
  /** Lines, elements or inputs skipped, and calls not checked. */
  readonly skipped: number;
  /** Sessions ended early to stay within the live-session cap. */
  readonly evictedSessions: number;
  /** Tools named by the most reported verdicts: tool, verdicts, sessions. */
  readonly topTools: readonly { readonly tool: string; readonly verdicts: number; readonly sessions: number }[];
  /** The sessions that wasted the most calls (then: reached the highest action, had the most verdicts). */
  readonly worstSessions: readonly SessionReport[];
}

/** Tools and sessions the summary names. */
const TOP = 10;

/** A session's report. */
export function sessionReport(t: SessionTally): SessionReport {
  return {
    session: t.session,
    file: t.file,
    calls: t.calls,
    verdicts: t.verdicts,
    worstAction: t.worst,
    kinds: [...t.kinds].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k),
    firstVerdict: t.first,
    firstBreak: t.firstBreak,
    wastedCalls: t.wastedCalls,
    failedCalls: t.failed,
  };
}

/** Worst first: most wasted calls, then highest action, then most verdicts, then by id (deterministic). */
function worse(a: SessionTally, b: SessionTally): number {
  const rank = (t: SessionTally): number => (t.worst === null ? 0 : ACTION_RANK[t.worst]);
  return b.wastedCalls - a.wastedCalls || rank(b) - rank(a) || b.verdicts - a.verdicts || (a.session < b.session ? -1 : a.session > b.session ? 1 : 0);
}

/** Summarises a scan. */
export function summarise(totals: ScanTotals): ScanSummary {
  const byKind: Record<string, number> = {};
  const byAction: Record<LoopAction, number> = { warn: 0, ask: 0, break: 0 };
  const tools = new Map<string, { verdicts: number; sessions: number }>();
  let flagged = 0;
  let wasted = 0;
  for (const t of totals.sessions) {
    if (t.worst === null) continue;
    flagged++;
    byAction[t.worst]++;
    wasted += t.wastedCalls;
    for (const k of t.kinds.keys()) byKind[k] = (byKind[k] ?? 0) + 1;
    for (const [tool, n] of t.tools) {
      const c = tools.get(tool) ?? { verdicts: 0, sessions: 0 };
      c.verdicts += n;
      c.sessions++;
      tools.set(tool, c);
    }
  }
  const topTools = [...tools]
    .sort((a, b) => b[1].verdicts - a[1].verdicts || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP)
    .map(([tool, c]) => ({ tool, ...c }));
  const worstSessions = totals.sessions.filter((t) => t.worst !== null).sort(worse).slice(0, TOP).map(sessionReport);
  return {
    sessions: totals.sessions.length,
    events: totals.events,
    flaggedSessions: flagged,
    byKind: Object.fromEntries(Object.entries(byKind).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
    byAction,
    wastedCalls: wasted,
    eventsPerSecond: totals.millis > 0 ? Math.round(totals.events / (totals.millis / 1000)) : 0,
    skipped: totals.issues,
    evictedSessions: totals.evicted,
    topTools,
    worstSessions,
  };
}
