/**
 * The period search behind chanting against its definition: at every character, compare every period.
 * Same hits, same runs, whatever the options and however often positions are rebased.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PeriodSearch, gramPlan } from '../src/text/period-search.js';

/** The definition, the slow way: O(maxPeriod) per character. */
class EveryPeriod {
  private readonly text: number[] = [];
  private readonly run: number[];
  private readonly runEnd: number[];
  lastHitRun = 0;

  constructor(
    private readonly maxPeriod: number,
    private readonly threshold: number,
    private readonly minLength: number,
    private readonly longChunk = Infinity,
    private readonly longThreshold = threshold,
  ) {
    this.run = new Array<number>(maxPeriod + 1).fill(0);
    this.runEnd = new Array<number>(maxPeriod + 1).fill(-2);
  }

  push(ch: number): number {
    const i = this.text.length;
    this.text.push(ch);
    let hit = 0;
    for (let L = 1; L <= Math.min(this.maxPeriod, i); L++) {
      if (this.text[i - L] !== ch) continue;
      const r = this.runEnd[L] === i - 1 ? (this.run[L] as number) + 1 : 1;
      this.run[L] = r;
      this.runEnd[L] = i;
      const reps = L >= this.longChunk ? this.longThreshold : this.threshold;
      if (hit === 0 && r >= (reps - 1) * L && r + L >= this.minLength) {
        hit = L;
        this.lastHitRun = r;
      }
    }
    return hit;
  }
}

const factor = Math.max(Number(process.env.LOOPWATCH_FC_SCALE ?? 1) || 1, 0.01);

describe('period search', () => {
  it('should find the same smallest hitting period and run as comparing every period, rebased or not', () => {
    // long chunks (from longChunk characters) need longThreshold repetitions; Infinity: the rule is off
    const options = fc.record({ maxPeriod: fc.integer({ min: 1, max: 48 }), threshold: fc.integer({ min: 2, max: 12 }), minLength: fc.integer({ min: 2, max: 120 }), longChunk: fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 48 })), longThreshold: fc.integer({ min: 2, max: 12 }) });
    // streams with structure: chunks repeated, broken, overlapping, over small alphabets
    const piece = fc.oneof(
      fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 40 })).map(([t, n]) => t.repeat(n)),
      fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 60 }),
      fc.string({ maxLength: 20 }),
    );
    let hits = 0;
    fc.assert(
      fc.property(options, fc.array(piece, { minLength: 1, maxLength: 20 }), fc.array(fc.nat(4000), { maxLength: 4 }), (o, pieces, rebaseAt) => {
        const fast = new PeriodSearch(o.maxPeriod, o.threshold, o.minLength, o.longChunk, o.longThreshold);
        const slow = new EveryPeriod(o.maxPeriod, o.threshold, o.minLength, o.longChunk, o.longThreshold);
        const text = pieces.join('');
        for (let k = 0; k < text.length; k++) {
          if (rebaseAt.includes(k)) fast.rebase();
          const a = fast.push(text.charCodeAt(k));
          const b = slow.push(text.charCodeAt(k));
          expect(a).toBe(b);
          if (b > 0) {
            hits++;
            expect(fast.lastHitRun).toBe(slow.lastHitRun);
          }
        }
      }),
      { numRuns: Math.round(400 * factor) },
    );
    expect(hits).toBeGreaterThan(100);
  });

  it('should keep a gram and anchor plan that cannot miss a hit: G + stride - 1 <= the least hitting run', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 2, max: 50 }), fc.integer({ min: 2, max: 500 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 2, max: 50 }), (maxPeriod, threshold, minLength, longChunk, longThreshold) => {
        const { gram, stride, least } = gramPlan(maxPeriod, threshold, minLength, longChunk, longThreshold);
        expect(gram).toBeGreaterThanOrEqual(1);
        expect(gram).toBeLessThanOrEqual(8);
        expect(stride).toBeGreaterThanOrEqual(1);
        expect(gram + stride - 1).toBeLessThanOrEqual(least);
      }),
    );
    expect(gramPlan(200, 10, 100)).toEqual({ gram: 8, stride: 8, least: 90 });
    // the chanting defaults: chunks of 50+ characters three times over need a run of at least 100
    expect(gramPlan(200, 10, 100, 50, 3)).toEqual({ gram: 8, stride: 8, least: 90 });
    // need 1, minLength 4: period 2 hits with a run of 2, so grams of 1 checked every 2 characters
    expect(gramPlan(200, 2, 4)).toEqual({ gram: 1, stride: 2, least: 2 });
  });
});
