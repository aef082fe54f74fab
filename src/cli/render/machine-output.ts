/**
 * The machine-readable outputs: one JSON line per verdict (`--jsonl`) and one JSON document for the whole
 * scan (`--json`). Field names and order are part of the CLI's contract (docs/cli.md, "Output schemas").
 */
import type { TraceCall } from '../../formats/trace-record.js';
import type { Verdict } from '../../types.js';
import { type ScanSummary, sessionReport } from '../scan/scan-summary.js';
import type { SessionTally } from '../scan/session-tally.js';

/** One `--jsonl` line (without the newline) for a verdict about the session's call `index`. */
export function verdictLine(v: Verdict, call: TraceCall, index: number): string {
  return JSON.stringify({
    session: call.session,
    index,
    step: call.event.step ?? index,
    tool: call.event.tool,
    kind: v.kind,
    detector: v.detector,
    confidence: Math.round(v.confidence * 1000) / 1000,
    action: v.action,
    loopStart: v.loopStart,
    recommended: v.recommended,
    message: v.message,
  });
}

/** The `--json` document. */
export function scanDocument(summary: ScanSummary, sessions: readonly SessionTally[]): string {
  const { sessions: count, events, flaggedSessions, byKind, byAction, wastedCalls, eventsPerSecond, skipped, evictedSessions, topTools } = summary;
  return JSON.stringify(
    {
      summary: { sessions: count, events, flaggedSessions, byKind, byAction, wastedCalls, eventsPerSecond, skipped, evictedSessions, topTools },
      sessions: sessions.map(sessionReport),
    },
    null,
    2,
  );
}
