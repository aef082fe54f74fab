/**
 * The report's bounded parts (src/report/): a timeline keeps a window of at most TIMELINE_CALLS calls
 * placed at the first loop, counts the calls and verdicts left out, merges loop spans and keeps previews
 * capped; the picks hold the worst sessions and a seeded sample, however many sessions are offered; the
 * matrix counts verdicts and sessions per detector and action.
 */
import { describe, expect, it } from 'vitest';
import type { ExplainRow } from '../src/cli/render/explain-text.js';
import type { SessionReport } from '../src/cli/scan/scan-summary.js';
import { PREVIEW_CAP, TIMELINE_CALLS, TIMELINE_LEAD, TimelineBuilder } from '../src/report/timeline-builder.js';
import { TIMELINE_SAMPLE, TimelinePicks } from '../src/report/timeline-picks.js';
import { VerdictMatrix } from '../src/report/verdict-matrix.js';
import type { LoopAction, Verdict } from '../src/types.js';

const verdict = (action: LoopAction, loopStart: number, detector = 'exact_repeat'): Verdict =>
  ({ kind: detector, detector, pattern: '', confidence: 0.9, loopStart, unit: [], repeatCount: 3, action, recommended: 'replan', detectionCount: 1, message: 'loop', session: 's', index: 0, progress: 'stalled', signals: [] }) as Verdict;

const report = (calls: number, loopStart: number | null, extra: Partial<SessionReport> = {}): SessionReport => ({
  session: 's',
  file: 'f',
  calls,
  verdicts: 0,
  worstAction: null,
  kinds: [],
  firstVerdict: loopStart === null ? null : { index: loopStart, step: loopStart, kind: 'exact_repeat', action: 'warn', loopStart, loopStartStep: loopStart },
  firstBreak: null,
  wastedCalls: 0,
  toolFailures: 0,
  refusedCalls: 0,
  endedEarly: false,
  ...extra,
});

const row = (index: number, v: Verdict | null = null, loopStart: number | null = null): ExplainRow => ({ index, step: index, tool: 'bash', args: '{"command":"ls"}', outcome: 'ok', verdict: v, loopStart });

describe('report timelines', () => {
  it('should keep a window of at most TIMELINE_CALLS calls from just before the first loop, and count what it leaves out', () => {
    const calls = 2000;
    const start = 900;
    const b = new TimelineBuilder(report(calls, start), 7, 'worst', 'warn');
    for (let i = 0; i < calls; i++) {
      const v = i === 100 ? verdict('warn', 95) : i >= 950 && i % 100 === 50 ? verdict('break', start) : null;
      b.add(row(i, v, v?.loopStart ?? null), false);
    }
    const t = b.finish();
    expect(t.shown).toHaveLength(TIMELINE_CALLS);
    expect(t.shown[0]?.index).toBe(start - TIMELINE_LEAD);
    expect(t.before).toEqual({ from: 0, calls: start - TIMELINE_LEAD, verdicts: { warn: 1, ask: 0, break: 0 } });
    const shownBreaks = t.shown.filter((c) => c.verdict?.action === 'break').length;
    expect(t.after).toEqual({ from: start - TIMELINE_LEAD + TIMELINE_CALLS, calls: calls - (start - TIMELINE_LEAD + TIMELINE_CALLS), verdicts: { warn: 0, ask: 0, break: 11 - shownBreaks } });
    expect(t.spans).toEqual([
      [95, 100],
      [900, 1950],
    ]);
    expect(t).toMatchObject({ row: 7, why: 'worst', calls, firstBreak: 950, note: null });
  });

  it('should show every call of a short session, hide verdicts below --min-action, and cap previews', () => {
    const b = new TimelineBuilder(report(4, 1, { endedEarly: true }), 0, 'sample', 'break');
    b.add(row(0), false);
    b.add({ ...row(1), tool: 't'.repeat(1000), args: 'api_key=abcdef123456' }, true);
    b.add(row(2, verdict('warn', 1), 1), false);
    b.add(row(3, verdict('break', 1), 1), false);
    const t = b.finish();
    expect(t.shown.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(t.before).toBeNull();
    expect(t.after).toBeNull();
    expect(t.shown[1]?.tool).toHaveLength(PREVIEW_CAP);
    expect(t.shown[1]).toMatchObject({ args: 'api_key=[REDACTED]', failed: true });
    expect(t.shown[2]?.verdict).toBeNull();
    expect(t.shown[3]?.verdict).toMatchObject({ action: 'break', loopStart: 1 });
    expect(t.spans).toEqual([[1, 3]]);
    expect(t.note).toContain('ended this session early');
  });

  it('should say when the input changed since the scan', () => {
    const b = new TimelineBuilder(report(5, null), 0, 'sample', 'warn');
    b.add(row(0), false);
    expect(b.finish().note).toBe('its input changed since the scan: 1 calls read now, 5 then');
  });

  it('should pick the worst sessions and a seeded sample, holding no more whatever is offered', () => {
    const pick = (): number[] => {
      const p = new TimelinePicks(3);
      for (let i = 0; i < 10_000; i++) p.offer(report(10, null, { wastedCalls: i % 97, session: `s${i}` }), i, i);
      return p.picks().map((x) => x.row);
    };
    const rows = pick();
    expect(rows.slice(0, 3)).toEqual([96, 193, 290]); // most wasted calls, first seen first
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThanOrEqual(3 + TIMELINE_SAMPLE);
    expect(pick()).toEqual(rows);
    expect(new TimelinePicks(0).picks()).toEqual([]);
  });

  it('should count verdicts per detector and action, and each session once per cell', () => {
    const m = new VerdictMatrix();
    const a = {};
    const b = {};
    m.add(verdict('warn', 0), a);
    m.add(verdict('break', 0), a);
    m.add(verdict('break', 0), a);
    m.add(verdict('break', 0), b);
    m.add(verdict('warn', 0, 'cycle'), b);
    expect(m.rowsByWeight()).toEqual([
      { detector: 'exact_repeat', verdicts: { warn: 1, ask: 0, break: 3 }, sessions: { warn: 1, ask: 0, break: 2 } },
      { detector: 'cycle', verdicts: { warn: 1, ask: 0, break: 0 }, sessions: { warn: 1, ask: 0, break: 0 } },
    ]);
  });
});
