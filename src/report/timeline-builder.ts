/**
 * One session's timeline, built from its replayed calls in order: a window of at most
 * {@link TIMELINE_CALLS} calls, placed so the first loop begins near its start, with the calls before and
 * after it counted (and their verdicts per action); the loops' spans (from the call each verdict's loop
 * began to the call it was about, merged) over every call; and the first break. Previews are capped and
 * redacted before they are kept, so a timeline's size is bounded whatever the session holds.
 */
import type { SessionReport } from '../cli/scan/scan-summary.js';
import { ACTION_RANK } from '../cli/scan/session-tally.js';
import type { ExplainRow } from '../cli/render/explain-text.js';
import type { LoopAction } from '../types.js';
import type { ReportTimeline, TimelineCall, TimelineGap, TimelineVerdict } from './report-data.js';
import { shown } from './shown-text.js';

/** Most calls a timeline shows. */
export const TIMELINE_CALLS = 300;
/** Calls shown before the one where the first loop began, when there are that many. */
export const TIMELINE_LEAD = 20;
/** Most loop spans kept per timeline; later loops are merged into the last span. */
export const MAX_SPANS = 200;
/** Longest tool name, args or outcome preview kept, in characters. */
export const PREVIEW_CAP = 200;
/** Longest verdict message kept, in characters. */
export const MESSAGE_CAP = 400;

const noVerdicts = (): Record<LoopAction, number> => ({ warn: 0, ask: 0, break: 0 });

function verdictOf(r: ExplainRow): TimelineVerdict | null {
  const v = r.verdict;
  if (v === null) return null;
  return {
    action: v.action,
    kind: v.kind,
    detector: v.detector,
    confidence: Math.round(v.confidence * 1000) / 1000,
    loopStart: r.loopStart ?? v.loopStart,
    recommended: v.recommended,
    message: shown(v.message, MESSAGE_CAP),
    signals: v.signals.length > 1 ? v.signals.map((s) => ({ kind: s.kind, detector: s.detector, confidence: Math.round(s.confidence * 1000) / 1000 })) : [],
  };
}

/** A timeline being built. */
export class TimelineBuilder {
  private readonly from: number;
  private readonly to: number;
  private readonly minRank: number;
  private readonly calls: TimelineCall[] = [];
  private readonly before = noVerdicts();
  private readonly after = noVerdicts();
  private readonly spans: [number, number][] = [];
  private firstBreak: number | null = null;
  private seen = 0;

  constructor(
    /** The session as the scan reported it. */
    private readonly report: SessionReport,
    private readonly row: number,
    private readonly why: 'worst' | 'sample',
    /** Lowest action shown beside the calls (the scan's `--min-action`). */
    minAction: LoopAction,
  ) {
    const focus = report.firstVerdict?.loopStart ?? 0;
    this.from = Math.max(0, Math.min(focus - TIMELINE_LEAD, report.calls - TIMELINE_CALLS));
    this.to = this.from + TIMELINE_CALLS;
    this.minRank = ACTION_RANK[minAction];
  }

  /** Adds the session's next replayed call (`failed`: the input says it failed). */
  add(r: ExplainRow, failed: boolean): void {
    this.seen++;
    const v = r.verdict !== null && ACTION_RANK[r.verdict.action] >= this.minRank ? r : { ...r, verdict: null, loopStart: null };
    if (v.verdict !== null) this.noteLoop(v.loopStart ?? v.verdict.loopStart, v.index, v.verdict.action);
    if (r.index < this.from || r.index >= this.to) {
      if (v.verdict !== null) (r.index < this.from ? this.before : this.after)[v.verdict.action]++;
      return;
    }
    this.calls.push({ index: r.index, step: r.step, tool: shown(r.tool, PREVIEW_CAP), args: shown(r.args, PREVIEW_CAP), outcome: shown(r.outcome, PREVIEW_CAP), failed, verdict: verdictOf(v) });
  }

  private noteLoop(start: number, index: number, action: LoopAction): void {
    if (action === 'break' && this.firstBreak === null) this.firstBreak = index;
    let s = Math.min(start, index);
    let e = index;
    for (let last = this.spans.at(-1); last !== undefined && s <= last[1] + 1; last = this.spans.at(-1)) {
      s = Math.min(s, last[0]);
      e = Math.max(e, last[1]);
      this.spans.pop();
    }
    if (this.spans.length >= MAX_SPANS) {
      const last = this.spans.pop() as [number, number];
      s = last[0];
    }
    this.spans.push([s, e]);
  }

  /** The timeline. */
  finish(): ReportTimeline {
    const calls = this.seen;
    const gap = (from: number, n: number, verdicts: Record<LoopAction, number>): TimelineGap | null => (n > 0 ? { from, calls: n, verdicts } : null);
    const notes: string[] = [];
    if (this.report.endedEarly) notes.push('the scan ended this session early (--max-sessions) and checked the rest afresh; here it is checked in one go, so verdicts may differ from the table');
    if (calls !== this.report.calls) notes.push(`its input changed since the scan: ${calls} calls read now, ${this.report.calls} then`);
    return {
      row: this.row,
      why: this.why,
      calls,
      shown: this.calls,
      before: gap(0, Math.min(this.from, calls), this.before),
      after: gap(this.to, Math.max(0, calls - this.to), this.after),
      spans: this.spans,
      firstBreak: this.firstBreak,
      note: notes.length === 0 ? null : notes.join('; '),
    };
  }
}
