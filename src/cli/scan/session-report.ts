/**
 * One session as the scan's report lists it, made from its tally once it has ended: the record the summary's
 * worst sessions are ranked by (worst-sessions.ts) and every output prints.
 */
import type { LoopAction } from '../../types.js';
import type { FirstVerdict, SessionTally } from './session-tally.js';

/** One session, as the report lists it. */
export interface SessionReport {
  /** Session id, whole. */
  readonly session: string;
  /** The input it was read from (with the id, what identifies the session). */
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
  /** Calls the input says failed (their tool returned an error). */
  readonly toolFailures: number;
  /** Calls the checker refused (read but never checked; each named on stderr). */
  readonly refusedCalls: number;
  /** Whether the session was ended early to stay within `--max-sessions` (its detector state was lost). */
  readonly endedEarly: boolean;
}

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
    toolFailures: t.toolFailures,
    refusedCalls: t.refused,
    endedEarly: t.endedEarly,
  };
}
