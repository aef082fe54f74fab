import { describe, expect, it } from 'vitest';
import { LoopDetector, POLICY_DEFAULTS } from '../src/index.js';
import type { Verdict } from '../src/index.js';
import { ALL_OFF, fired, run, times } from './helpers/session.js';

const ls = { tool: 'bash', args: { command: 'ls' } };
const exactOnly = { ...ALL_OFF, exactRepeat: true } as const;

describe('action ladder and policy', () => {
  it(`should follow the default ladder ${POLICY_DEFAULTS.ladder.join(' -> ')} and then keep the last rung`, () => {
    const v = run(new LoopDetector({ detectors: exactOnly }), times(7, ls));
    expect(v.map((x) => x?.action ?? null)).toEqual([null, null, 'warn', 'warn', 'break', 'break', 'break']);
    expect(v.map((x) => x?.detectionCount ?? 0)).toEqual([0, 0, 1, 2, 3, 4, 5]);
  });

  it('should escalate faster on no-progress evidence (same call, same result)', () => {
    const sameResult = run(new LoopDetector({ detectors: exactOnly }), times(5, { ...ls, result: 'a b c' }));
    expect(sameResult.map((x) => x?.action ?? null)).toEqual([null, null, 'warn', 'break', 'break']);
    expect(sameResult[2]!.progress).toBe('stalled');
    expect(sameResult[2]!.message).toContain('The results have not changed');
    const noResult = run(new LoopDetector({ detectors: exactOnly }), times(5, ls));
    expect(noResult.map((x) => x?.action ?? null)).toEqual([null, null, 'warn', 'warn', 'break']);
  });

  it('should escalate a repeated call whose results keep changing at half speed with progress "slow"', () => {
    const polls = Array.from({ length: 9 }, (_, i) => ({ ...ls, result: `tick ${i}` }));
    const slow = run(new LoopDetector({ detectors: exactOnly, policy: { progress: 'slow' } }), polls);
    expect(slow.map((x) => x?.action ?? null)).toEqual([null, null, 'warn', 'warn', 'warn', 'warn', 'break', 'break', 'break']);
    const suppressed = run(new LoopDetector({ detectors: exactOnly }), polls);
    expect(fired(suppressed)).toEqual([]);
  });

  it('should use a custom ladder, including ask', () => {
    const v = run(new LoopDetector({ detectors: exactOnly, policy: { ladder: ['ask', 'break'] } }), times(4, ls));
    expect(v.map((x) => x?.action ?? null)).toEqual([null, null, 'ask', 'break']);
    expect(v[2]!.recommended).toBe('escalate');
    expect(v[2]!.message).toContain('A human has been asked');
  });

  it('should let onDetect override the action or drop the verdict', () => {
    const seen: Verdict[] = [];
    const d = new LoopDetector({
      detectors: exactOnly,
      policy: { onDetect: (v) => (seen.push(v), v.repeatCount === 3 ? null : v.repeatCount === 4 ? 'ask' : undefined) },
    });
    const v = run(d, times(5, ls));
    expect(v[2]).toBeNull(); // dropped: does not count or climb
    expect(v[3]!.action).toBe('ask');
    expect(v[3]!.detectionCount).toBe(1);
    expect(v[4]!.action).toBe('warn');
    expect(seen.map((x) => x.repeatCount)).toEqual([3, 4, 5]);
  });

  it('should reject an onDetect that returns something other than an action, null or nothing', () => {
    const d = new LoopDetector({ detectors: exactOnly, policy: { onDetect: () => 'stop' as never } });
    expect(() => run(d, times(3, ls))).toThrow(/onDetect must return/);
  });

  it('should start the ladder again after a cooldown of quiet calls', () => {
    const quiet = Array.from({ length: 10 }, (_, i) => ({ tool: 'bash', args: { command: `echo ${i}` } }));
    const v = run(new LoopDetector({ detectors: exactOnly, policy: { cooldown: 10 } }), [...times(4, ls), ...quiet, ...times(3, ls)]);
    expect(v.filter(Boolean).map((x) => x!.action)).toEqual(['warn', 'warn', 'warn']);
    const never = run(new LoopDetector({ detectors: exactOnly, policy: { cooldown: 0 } }), [...times(4, ls), ...quiet, ...times(3, ls)]);
    expect(never.filter(Boolean).map((x) => x!.action)).toEqual(['warn', 'warn', 'break']);
  });

  it('should fuse agreeing detectors: mean confidence plus a bonus per extra detector', () => {
    const d = new LoopDetector({ detectors: { ...ALL_OFF, exactRepeat: true, frequency: true }, policy: { agreementBonus: 0.1 } });
    const v = run(d, times(3, ls))[2]!;
    expect(v.signals.map((s) => s.kind)).toEqual(['exact_repeat', 'frequency']);
    const mean = (v.signals[0]!.confidence + v.signals[1]!.confidence) / 2;
    expect(v.confidence).toBeCloseTo(Math.min(1, mean + 0.1), 4);
    expect(v.kind).toBe('exact_repeat');
  });

  it('should take only the first signal with fusion "first"', () => {
    const d = new LoopDetector({ detectors: { ...ALL_OFF, exactRepeat: true, frequency: true }, policy: { fusion: 'first' } });
    const v = run(d, times(3, ls))[2]!;
    expect(v.signals).toHaveLength(1);
    expect(v.confidence).toBe(v.signals[0]!.confidence);
  });

  it('should drop verdicts under minConfidence', () => {
    expect(fired(run(new LoopDetector({ detectors: { ...ALL_OFF, frequency: true }, policy: { minConfidence: 0.95, progress: 'ignore' } }), times(4, ls)))).toEqual([]);
  });

  it('should recommend by confidence with recommend "confidence" (corteX rule)', () => {
    const d = new LoopDetector({ detectors: { ...ALL_OFF, exactRepeat: true }, policy: { recommend: 'confidence', escalateConfidence: 0.85, escalateRepeats: 5, progress: 'ignore' } });
    const v = run(d, times(7, ls));
    expect(v[2]!.recommended).toBe('replan'); // 0.8
    expect(v[4]!.recommended).toBe('escalate'); // 0.9 > 0.85
    expect(v[6]!.recommended).toBe('escalate');
  });

  it('should write a message that names the pattern, the start and what to do', () => {
    const v = run(new LoopDetector({ detectors: exactOnly }), times(3, { ...ls, step: 41 }))[2]!;
    expect(v.message).toMatch(/^\[loopwatch\] You appear to be in a loop \(exact_repeat, confidence 0\.\d\d, since call #1\): bash \{"command":"ls"\} called 3 times in a row\./);
    expect(v.message).toContain('try a different approach');
    expect(v.step).toBe(41);
    expect(v.index).toBe(2);
  });

  it('should reset the ladder and history on reset()', () => {
    const d = new LoopDetector({ detectors: exactOnly });
    run(d, times(5, ls));
    d.reset();
    expect(run(d, times(3, ls)).map((x) => x?.action ?? null)).toEqual([null, null, 'warn']);
    expect(d.stats().detections).toBe(4);
  });
});
