/**
 * A session's row in the report's table, from the scan's report of it and its label: ids, files, kinds
 * and labels capped and redacted before they leave loopwatch, numbers as they are.
 */
import type { SessionReport } from '../cli/scan/scan-summary.js';
import type { SessionLabel } from '../formats/session-labels.js';
import type { ReportSession } from './report-data.js';
import { shown } from './shown-text.js';

/** Longest session id or file shown, in characters (longer ones are cut with `…`). */
export const ID_CAP = 500;
/** Longest loop kind shown. */
export const KIND_CAP = 100;

/** The row of `r` at position `row`, labelled by `label` when there is one. */
export function sessionRow(r: SessionReport, row: number, label: SessionLabel | undefined): ReportSession {
  const f = r.firstVerdict;
  return {
    row,
    session: shown(r.session, ID_CAP),
    file: shown(r.file, ID_CAP),
    calls: r.calls,
    verdicts: r.verdicts,
    worst: r.worstAction,
    kinds: r.kinds.map((k) => shown(k, KIND_CAP)),
    loopStart: f?.loopStart ?? null,
    loopStartStep: f?.loopStartStep ?? null,
    flaggedAt: f?.step ?? null,
    flaggedCall: f?.index ?? null,
    firstBreak: r.firstBreak,
    wasted: r.wastedCalls,
    toolFailures: r.toolFailures,
    endedEarly: r.endedEarly,
    label: label === undefined ? null : shown(label.label, ID_CAP),
    resolved: label?.resolved ?? null,
  };
}
