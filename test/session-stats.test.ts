import { describe, expect, it } from 'vitest';
import { LoopDetector, StatsAggregate } from '../src/index.js';
import { ALL_OFF, times } from './helpers/session.js';

describe('stats', () => {
  it('should count checks, skipped calls, detections by kind and action, and average confidence', () => {
    const d = new LoopDetector({ sessionId: 's-1', detectors: { ...ALL_OFF, exactRepeat: true, cycle: true }, tools: { heartbeat: { exempt: true } } });
    for (const e of times(4, { tool: 'a', args: {} })) d.check(e);
    d.check({ tool: 'heartbeat', args: {} });
    // the shipped default weighs a cycle 0.8: x-y is flagged at its third turn (its 6th call; hand-tuned: the 4th)
    for (const t of ['x', 'y', 'x', 'y', 'x', 'y']) d.check({ tool: t, args: {} });
    const s = d.stats();
    expect(s).toMatchObject({ sessionId: 's-1', checks: 11, skipped: 1, detections: 3, byKind: { exact_repeat: 2, cycle: 1 }, falsePositives: 0 });
    // the x-y cycle has no outcomes given: warned, not broken, before its 5th turn (src/policy/unknown-outcomes.ts)
    expect(s.byAction).toEqual({ warn: 3, ask: 0, break: 0 });
    expect(s.averageConfidence).toBeGreaterThan(0);
    expect(s.averageConfidence).toBeLessThanOrEqual(1);
  });

  it('should count false positives the caller reports', () => {
    const d = new LoopDetector();
    d.reportFalsePositive();
    d.reportFalsePositive();
    expect(d.stats().falsePositives).toBe(2);
  });

  it('should sum many sessions into a shared aggregate', () => {
    const total = new StatsAggregate();
    const sessions = [0, 1, 2].map((i) => new LoopDetector({ sessionId: `s${i}`, stats: total, detectors: { ...ALL_OFF, exactRepeat: true } }));
    sessions.forEach((d, i) => {
      for (const e of times(3 + i, { tool: 't', args: { i } })) d.check(e);
    });
    sessions[0]!.reportFalsePositive();
    const t = total.snapshot();
    expect(t.sessions).toBe(3);
    expect(t.checks).toBe(3 + 4 + 5);
    expect(t.detections).toBe(1 + 2 + 3);
    expect(t.byKind).toEqual({ exact_repeat: 6 });
    expect(t.falsePositives).toBe(1);
  });

  it('should keep stats across reset()', () => {
    const d = new LoopDetector({ detectors: { ...ALL_OFF, exactRepeat: true } });
    for (const e of times(3, { tool: 't', args: {} })) d.check(e);
    d.reset();
    expect(d.stats().detections).toBe(1);
  });
});
