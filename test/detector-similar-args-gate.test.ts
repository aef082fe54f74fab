/**
 * Similar args skips a success with a real answer unless an earlier call of the tool got the very same
 * outcome (no unit ending there could be stalled, so the policy would set the signal aside). The gate is a
 * saving only: with it on and off, the same streams must give the same verdicts on both engines. So is
 * the comparison prefilter (too few earlier calls of the tool, or none of another signature: no summary is
 * compared).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { setAnswerGate, setComparePrefilter } from '../src/detectors/similar-args.js';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { options, runs, sameAnswer, stream, variant } from './helpers/streams.js';
import { verdictsOf } from './helpers/verdicts.js';

function verdicts(events: readonly ToolEvent[], o: LoopDetectorOptions, gate: boolean): string[] {
  setAnswerGate(gate);
  return verdictsOf(events, o).map((v) => JSON.stringify(v));
}

describe('similar args: the answered-before gate', () => {
  afterEach(() => setAnswerGate(true));

  it('should never change a verdict, on random streams and options, on both engines', () => {
    fc.assert(
      fc.property(stream, options, fc.constantFrom<'wasm' | 'reference'>('wasm', 'reference'), (events, o, engine) => {
        const opts = { ...o, engine } as LoopDetectorOptions;
        expect(verdicts(events, opts, true)).toEqual(verdicts(events, opts, false));
      }),
      { numRuns: runs(300) },
    );
  });

  it('should still flag paraphrased searches landing on the same page', () => {
    const page = 'The handleSubmitForm callback validates every field of the user profile page before it posts the form.';
    const events: ToolEvent[] = ['handleSubmitForm', 'handleSubmitForn', 'handleSubmitFxrm', 'handleSubmitF0rm', 'handleSubmitFo_m', 'handleSubmiXForm'].map((q) => ({ tool: 'search', args: { q, limit: 5 }, result: page }));
    const flagged = verdicts(events, {}, true).filter((v) => v !== 'null');
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.some((v) => v.includes('similar_args'))).toBe(true);
  });

  it('should still stop for varied calls landing on one answer amid other answers', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(variant, sameAnswer), { minLength: 4, maxLength: 30 }), (events) => {
        expect(verdicts(events, {}, true)).toEqual(verdicts(events, {}, false));
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('similar args: the comparison prefilter', () => {
  afterEach(() => setComparePrefilter(true));

  function filtered(events: readonly ToolEvent[], o: LoopDetectorOptions, on: boolean): string[] {
    setComparePrefilter(on);
    return verdictsOf(events, o).map((v) => JSON.stringify(v));
  }

  it('should never change a verdict, on random streams and options, on both engines', () => {
    fc.assert(
      fc.property(stream, options, fc.constantFrom<'wasm' | 'reference'>('wasm', 'reference'), (events, o, engine) => {
        const opts = { ...o, engine } as LoopDetectorOptions;
        expect(filtered(events, opts, true)).toEqual(filtered(events, opts, false));
      }),
      { numRuns: runs(300) },
    );
  });

  it('should never change a verdict on varied calls of one tool, the answered-before gate off', () => {
    setAnswerGate(false);
    try {
      fc.assert(
        fc.property(fc.array(fc.oneof(variant, sameAnswer), { minLength: 2, maxLength: 30 }), fc.integer({ min: 2, max: 5 }), (events, threshold) => {
          const o = { detectors: { similarArgs: { threshold, window: 6 } } } as LoopDetectorOptions;
          expect(filtered(events, o, true)).toEqual(filtered(events, o, false));
        }),
        { numRuns: runs(300) },
      );
    } finally {
      setAnswerGate(true);
    }
  });
});
