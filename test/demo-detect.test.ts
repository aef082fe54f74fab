/**
 * The default fleet through default LoopDetectors, as `loopwatch demo` runs it. Only facts that hold for
 * any sound detector are asserted (a loop of identical calls with identical results is caught; looking
 * up different orders is not a loop), never the measured rates: those are the demo's output.
 */
import { describe, expect, it } from 'vitest';
import { INJECTED_KINDS, evaluateFleet, formatFleetScore, generateFleet, judgeSession, scanFleet, scoreFleet } from '../src/demo/fleet/index.js';

const fleet = generateFleet();
const verdicts = scanFleet(fleet);
const score = scoreFleet(fleet, verdicts);

/** Loops of one call made again and again with the very same result every time. */
const IDENTICAL = new Set(['reread-same-range', 'same-search-nothing-found', 'same-command-same-error', 'same-kb-search', 'same-order-lookup', 'same-customer-lookup', 'rerun-failing-tests-tool']);

describe('demo fleet through the default LoopDetector', () => {
  it('should scan every session and keep verdicts on calls of the session', () => {
    expect(verdicts.size).toBe(fleet.length);
    for (const s of fleet) {
      for (const v of verdicts.get(s.session) ?? []) {
        expect(v.index).toBeGreaterThanOrEqual(0);
        expect(v.index).toBeLessThan(s.events.length);
        expect(['warn', 'ask', 'break']).toContain(v.action);
      }
    }
  });

  it('should compute a score for every injected kind and a report', () => {
    expect(score.sessions).toBe(fleet.length);
    for (const k of INJECTED_KINDS) expect(score.recall.find((r) => r.kind === k)?.injected).toBeGreaterThan(0);
    const all = score.precision.find((p) => p.kind === 'all');
    expect(all?.precision).toBeGreaterThanOrEqual(0);
    expect(all?.precision).toBeLessThanOrEqual(1);
    const text = formatFleetScore(score);
    for (const k of INJECTED_KINDS) expect(text).toContain(k);
  });

  it('should score the same in one streaming pass as in separate steps', () => {
    const small = generateFleet({ seed: 5, sessions: 120 });
    const run = evaluateFleet({ seed: 5, sessions: 120, score: { slack: 1 } });
    expect(run.score).toEqual(scoreFleet(small, scanFleet(small), { slack: 1 }));
    expect(run.sessions).toBe(120);
    expect(run.calls).toBe(small.reduce((n, s) => n + s.events.length, 0));
    expect(run.generateMs).toBeGreaterThan(0);
    expect(run.scanMs).toBeGreaterThan(0);
    const quiet = evaluateFleet({ seed: 5, sessions: 120, detector: { policy: { minConfidence: 1 } } });
    expect(quiet.score.precision.find((p) => p.kind === 'all')?.flagged).toBeLessThan(run.score.precision.find((p) => p.kind === 'all')?.flagged ?? 0);
  });

  it('should catch every exact repeat of one call with the same result', () => {
    const loops = fleet.filter((s) => s.injected?.kind === 'exact_repeat' && IDENTICAL.has(s.variant));
    expect(loops.length).toBeGreaterThan(30);
    const missed = loops.filter((s) => !judgeSession(s, verdicts.get(s.session) ?? []).caught);
    expect(missed.map((s) => s.session)).toEqual([]);
  });

  it('should catch every session chanting the same sentence', () => {
    const loops = fleet.filter((s) => s.injected?.kind === 'chanting');
    expect(loops.filter((s) => !judgeSession(s, verdicts.get(s.session) ?? []).caught).map((s) => s.session)).toEqual([]);
  });

  it('should not flag a support agent looking up each of the customer\'s orders', () => {
    const clean = fleet.filter((s) => s.legit === 'several_orders');
    expect(clean.length).toBeGreaterThan(30);
    expect(clean.filter((s) => (verdicts.get(s.session) ?? []).length > 0).map((s) => s.session)).toEqual([]);
  });
});
