import { describe, expect, it } from 'vitest';
import { DetectorError, LoopDetector } from '../src/index.js';
import type { Detector, LoopSignal, ObservedCall } from '../src/index.js';
import { ALL_OFF } from './helpers/session.js';

/** A custom detector: too many calls to one paid tool (chimera's TokenBudgetDetector shape). */
class BudgetDetector implements Detector {
  readonly name = 'budget';
  private spent = 0;
  constructor(private readonly limit: number) {}
  record(call: ObservedCall): void {
    if (call.tool === 'paid_api') this.spent++;
  }
  check(): LoopSignal | null {
    return this.spent > this.limit ? { kind: 'token_budget', detector: this.name, pattern: `paid_api called ${this.spent} times`, confidence: 0.9 } : null;
  }
  reset(): void {
    this.spent = 0;
  }
}

describe('custom detectors', () => {
  it('should plug in through the Detector interface and produce verdicts of their own kind', () => {
    const d = new LoopDetector({ detectors: ALL_OFF, custom: [new BudgetDetector(2)] });
    const v = [1, 2, 3].map((i) => d.check({ tool: 'paid_api', args: { i } }));
    expect(v[2]?.kind).toBe('token_budget');
    expect(v[2]?.detector).toBe('budget');
    expect(v[2]?.action).toBe('warn');
    expect(v[2]?.unit.map((c) => c.index)).toEqual([2]);
    expect(d.stats().byKind).toEqual({ token_budget: 1 });
  });

  it('should see the normalised call and be reset with the session', () => {
    const seen: ObservedCall[] = [];
    const spy: Detector = { name: 'spy', record: (c) => void seen.push(c), check: () => null, reset: () => void seen.splice(0) };
    const d = new LoopDetector({ custom: [spy] });
    d.check({ tool: 'search', args: '{"q": "x"}', error: 'HTTP 503 Service Unavailable' });
    expect(seen[0]).toMatchObject({ index: 0, tool: 'search', args: { q: 'x' }, isError: true, isInfraFailure: true });
    expect(seen[0]!.signature).toMatch(/^[0-9a-f]{16}$/);
    d.reset();
    expect(seen).toEqual([]);
  });

  it('should report a detector that throws or returns a malformed signal as a DetectorError naming it', () => {
    const thrower: Detector = { name: 'thrower', record: () => undefined, check: () => { throw new Error('bug'); }, reset: () => undefined };
    expect(() => new LoopDetector({ custom: [thrower] }).check({ tool: 't' })).toThrow(/detector "thrower" threw: bug/);
    const bad: Detector = { name: 'bad', record: () => undefined, check: () => ({ kind: 'x', pattern: 'p', confidence: 7 }) as LoopSignal, reset: () => undefined };
    expect(() => new LoopDetector({ custom: [bad] }).check({ tool: 't' })).toThrow(DetectorError);
  });
});
