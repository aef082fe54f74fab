/**
 * policy.kindWeights: a signal's confidence is multiplied by its kind's weight before fusion; a kind
 * weighing 0 is set aside (as if its detector had said nothing); kinds not named weigh 1.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { Detector, LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { ALL_OFF, fired, run } from './helpers/session.js';

/** The same failing call, again and again: exact repeat, frequency, dead end and state repeat all fire. */
const stuck: ToolEvent[] = Array.from({ length: 6 }, () => ({ tool: 'bash', args: { command: 'make test' }, error: 'make: *** [test] Error 2' }));

describe('policy.kindWeights', () => {
  it('should leave verdicts as they are by default and with every weight 1', () => {
    const plain = run(new LoopDetector(), stuck);
    const ones = run(new LoopDetector({ policy: { kindWeights: { exact_repeat: 1, frequency: 1, dead_end: 1, state_repeat: 1 } } }), stuck);
    expect(ones.map((v) => v && [v.kind, v.action, v.confidence])).toEqual(plain.map((v) => v && [v.kind, v.action, v.confidence]));
    expect(fired(plain)).toEqual([2, 3, 4, 5]);
  });

  it('should set a kind weighing 0 aside: no verdict from it alone', () => {
    const events: ToolEvent[] = Array.from({ length: 5 }, () => ({ tool: 'search', args: { q: 'refund policy' } }));
    const only = { detectors: { ...ALL_OFF, exactRepeat: true } };
    expect(fired(run(new LoopDetector(only), events))).toEqual([2, 3, 4]);
    expect(fired(run(new LoopDetector({ ...only, policy: { kindWeights: { exact_repeat: 0 } } }), events))).toEqual([]);
  });

  it('should drop a weight-0 kind from a fused verdict, leaving the others', () => {
    const d = new LoopDetector({ policy: { kindWeights: { exact_repeat: 0 } } });
    const v = run(d, stuck).at(-1);
    expect(v?.kind).toBe('frequency');
    expect(v?.signals.map((s) => s.kind)).not.toContain('exact_repeat');
  });

  it('should scale confidences before minConfidence is applied', () => {
    // three identical searches: frequency 0.5 and exact repeat 0.8 alone each
    const events: ToolEvent[] = Array.from({ length: 3 }, () => ({ tool: 'search', args: { q: 'refund policy' } }));
    const freq = { detectors: { ...ALL_OFF, frequency: true } };
    expect(run(new LoopDetector(freq), events)[2]?.confidence).toBe(0.5);
    expect(run(new LoopDetector({ ...freq, policy: { kindWeights: { frequency: 0.9 } } }), events)[2]).toBeNull();
    const boosted = run(new LoopDetector({ ...freq, policy: { kindWeights: { frequency: 1.5 } } }), events)[2];
    expect(boosted?.confidence).toBe(0.75);
    // capped at 1
    expect(run(new LoopDetector({ ...freq, policy: { kindWeights: { frequency: 10 } } }), events)[2]?.confidence).toBe(1);
  });

  it('should weigh custom kinds by name too', () => {
    const custom: Detector = {
      name: 'always',
      record: () => undefined,
      check: () => ({ kind: 'my_kind', detector: 'always', pattern: 'always', confidence: 0.6 }),
      reset: () => undefined,
    };
    const events: ToolEvent[] = [{ tool: 'a', args: {} }, { tool: 'b', args: {} }];
    const base: LoopDetectorOptions = { detectors: ALL_OFF, custom: [custom] };
    expect(fired(run(new LoopDetector(base), events))).toEqual([0, 1]);
    expect(fired(run(new LoopDetector({ ...base, policy: { kindWeights: { my_kind: 0.5 } } }), events))).toEqual([]);
  });
});
