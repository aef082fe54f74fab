/**
 * Scoring a scan against the fleet's truth, on hand-made verdict lists whose precision, recall and delays
 * are worked out by hand; and the text report made from a score.
 */
import { describe, expect, it } from 'vitest';
import { SCORE_DEFAULTS, formatFleetScore, judgeSession, median, percent, scoreFleet, table } from '../src/demo/fleet/index.js';
import type { FleetScore, ScanVerdict, SessionTruth } from '../src/demo/fleet/index.js';

const truth: SessionTruth[] = [
  { session: 'a', style: 'coding', injected: { kind: 'exact_repeat', startIndex: 10 }, legit: null, variant: 'x' },
  { session: 'b', style: 'coding', injected: { kind: 'cycle', startIndex: 20 }, legit: null, variant: 'x' },
  { session: 'c', style: 'support', injected: { kind: 'dead_end', startIndex: 8 }, legit: null, variant: 'x' },
  { session: 'd', style: 'support', injected: { kind: 'semantic', startIndex: 10 }, legit: null, variant: 'x' },
  { session: 'e', style: 'coding', injected: null, legit: 'job_polling', variant: 'x' },
  { session: 'f', style: 'coding', injected: null, legit: null, variant: 'plain' },
  { session: 'g', style: 'support', injected: null, legit: 'pagination', variant: 'x' },
];

const v = (index: number, kind: string, action: ScanVerdict['action'] = 'warn'): ScanVerdict => ({ index, kind, action });

const verdicts: Record<string, ScanVerdict[]> = {
  a: [v(12, 'exact_repeat'), v(13, 'exact_repeat', 'break')], // on the loop, 2 calls in
  b: [v(5, 'frequency'), v(22, 'cycle')], // a false flag before the loop, then the loop caught
  c: [], // missed
  d: [v(8, 'semantic')], // 2 calls early: within the default slack
  e: [v(4, 'exact_repeat')], // a clean session flagged
  g: [v(3, 'frequency', 'ask')],
};

const row = <T extends { kind: string }>(rows: readonly T[], kind: string): T => {
  const r = rows.find((x) => x.kind === kind);
  if (r === undefined) throw new Error(`no row ${kind}`);
  return r;
};

describe('demo fleet scoring', () => {
  const score = scoreFleet(truth, verdicts);

  it('should judge each session by its first verdict and its first verdict on the loop', () => {
    expect(judgeSession(truth[0]!, verdicts.a!)).toEqual({ flagged: true, firstKind: 'exact_repeat', truePositive: true, caught: true, caughtKind: 'exact_repeat', delay: 2 });
    expect(judgeSession(truth[1]!, verdicts.b!)).toEqual({ flagged: true, firstKind: 'frequency', truePositive: false, caught: true, caughtKind: 'cycle', delay: 2 });
    expect(judgeSession(truth[2]!, [])).toEqual({ flagged: false, firstKind: null, truePositive: false, caught: false, caughtKind: null, delay: null });
    expect(judgeSession(truth[3]!, verdicts.d!)).toMatchObject({ truePositive: true, caught: true, delay: -2 });
    expect(judgeSession(truth[4]!, verdicts.e!)).toMatchObject({ flagged: true, truePositive: false, caught: false, delay: null });
  });

  it('should give recall per injected kind and overall, with median delays', () => {
    expect(score.sessions).toBe(7);
    expect(row(score.recall, 'exact_repeat')).toEqual({ kind: 'exact_repeat', injected: 1, caught: 1, recall: 1, sameKind: 1, early: 0, medianDelay: 2 });
    expect(row(score.recall, 'cycle')).toEqual({ kind: 'cycle', injected: 1, caught: 1, recall: 1, sameKind: 1, early: 1, medianDelay: 2 });
    expect(row(score.recall, 'dead_end')).toEqual({ kind: 'dead_end', injected: 1, caught: 0, recall: 0, sameKind: 0, early: 0, medianDelay: null });
    expect(row(score.recall, 'semantic')).toMatchObject({ injected: 1, caught: 1, recall: 1, medianDelay: -2 });
    expect(row(score.recall, 'chanting')).toMatchObject({ injected: 0, caught: 0, recall: null, medianDelay: null });
    expect(row(score.recall, 'all')).toEqual({ kind: 'all', injected: 4, caught: 3, recall: 0.75, sameKind: 3, early: 1, medianDelay: 2 });
    expect(score.recall.map((r) => r.kind).at(-1)).toBe('all');
  });

  it('should give precision per kind of first verdict and overall', () => {
    expect(score.precision.map((p) => p.kind)).toEqual(['exact_repeat', 'frequency', 'semantic', 'all']);
    expect(row(score.precision, 'exact_repeat')).toEqual({ kind: 'exact_repeat', flagged: 2, truePositives: 1, falsePositives: 1, precision: 0.5 });
    expect(row(score.precision, 'frequency')).toEqual({ kind: 'frequency', flagged: 2, truePositives: 0, falsePositives: 2, precision: 0 });
    expect(row(score.precision, 'semantic')).toEqual({ kind: 'semantic', flagged: 1, truePositives: 1, falsePositives: 0, precision: 1 });
    expect(row(score.precision, 'all')).toEqual({ kind: 'all', flagged: 5, truePositives: 2, falsePositives: 3, precision: 0.4 });
  });

  it('should count false positives per legitimate pattern, plain work apart', () => {
    const legit = Object.fromEntries(score.legit.map((l) => [l.pattern, l]));
    expect(legit.job_polling).toEqual({ pattern: 'job_polling', sessions: 1, flagged: 1, rate: 1, broken: 0, byKind: { exact_repeat: 1 } });
    expect(legit.pagination).toEqual({ pattern: 'pagination', sessions: 1, flagged: 1, rate: 1, broken: 0, byKind: { frequency: 1 } });
    expect(legit.plain).toEqual({ pattern: 'plain', sessions: 1, flagged: 0, rate: 0, broken: 0, byKind: {} });
    expect(legit.batch_edit).toMatchObject({ sessions: 0, flagged: 0, rate: null });
  });

  it('should count the clean sessions a break-level verdict would have stopped', () => {
    const stopped = scoreFleet(truth, { ...verdicts, g: [v(3, 'frequency', 'ask'), v(6, 'frequency', 'break')] });
    expect(stopped.legit.find((l) => l.pattern === 'pagination')).toMatchObject({ flagged: 1, broken: 1 });
    expect(stopped.legit.find((l) => l.pattern === 'job_polling')).toMatchObject({ flagged: 1, broken: 0 });
  });

  it('should count only verdicts at the lowest action asked for', () => {
    const s = scoreFleet(truth, new Map(Object.entries(verdicts)), { minAction: 'break' });
    expect(row(s.recall, 'all')).toMatchObject({ injected: 4, caught: 1, recall: 0.25, medianDelay: 3 });
    expect(row(s.precision, 'all')).toEqual({ kind: 'all', flagged: 1, truePositives: 1, falsePositives: 0, precision: 1 });
    expect(s.legit.find((l) => l.pattern === 'pagination')).toMatchObject({ flagged: 0 });
    expect(scoreFleet(truth, verdicts, { minAction: 'ask' }).legit.find((l) => l.pattern === 'pagination')).toMatchObject({ flagged: 1 });
  });

  it('should count a verdict before the loop as a false flag when there is no slack', () => {
    const s = scoreFleet(truth, verdicts, { slack: 0 });
    expect(row(s.recall, 'semantic')).toMatchObject({ caught: 0, early: 1 });
    expect(row(s.precision, 'all')).toMatchObject({ flagged: 5, truePositives: 1 });
    expect(SCORE_DEFAULTS).toEqual({ slack: 2, minAction: 'warn' });
  });

  it('should take medians of odd and even counts', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('demo fleet report', () => {
  const score: FleetScore = scoreFleet(truth, verdicts);

  it('should print recall, precision and false positives as aligned tables', () => {
    const text = formatFleetScore(score);
    expect(text).toContain('injected loop');
    expect(text).toContain('first verdict');
    expect(text).toContain('clean sessions');
    expect(text).toMatch(/^all\s+4\s+3\s+75\.0%\s+3\s+1\s+2$/m);
    expect(text).toMatch(/^all\s+5\s+2\s+3\s+40\.0%$/m);
    expect(text).toMatch(/^job_polling\s+1\s+1\s+100\.0%\s+0\.0%\s+exact_repeat 1$/m);
    expect(text).toContain('7 sessions');
  });

  it('should align columns and show missing ratios as a dash', () => {
    const lines = ['kind           n', '------------  --', 'exact_repeat  12', 'all            3'];
    expect(table([['kind', 'n'], ['exact_repeat', '12'], ['all', '3']])).toBe(lines.join('\n'));
    expect(table([['kind', 'as'], ['a', 'x'], ['bb', 'yyy']], 'll')).toBe(['kind  as', '----  ---', 'a     x', 'bb    yyy'].join('\n'));
    expect(percent(null)).toBe('-');
    expect(percent(0.5)).toBe('50.0%');
  });
});
