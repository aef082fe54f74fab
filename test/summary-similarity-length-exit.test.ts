/**
 * Comparing two strings of args summaries stops before reading their units when their lengths alone put
 * the similarity below the threshold asked (src/text/summary-string.ts): the answers of
 * summarySimilarityAtLeast are those it gives without the exit (the same "at least min?", and the same
 * value whenever it is), and of the args themselves, on strings short and long, of near and far lengths,
 * at any threshold.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { STRING_WHOLE, summarizeArgs } from '../src/text/args-summary.js';
import { summarySimilarityAtLeast } from '../src/text/summary-similarity.js';
import { setLengthExit } from '../src/text/summary-string.js';
import { runs } from './helpers/streams.js';

const words = fc.constantFrom('foo', 'fo0', 'bar ', 'src/', ' ', '.py', '1', '-', 'é', '語');
/** A string and another of a length near or far from it: a prefix, an extension, or an edit. */
const text = fc.array(words, { maxLength: 300, size: 'max' }).map((ws) => ws.join(''));
const pair = fc.tuple(text, fc.nat({ max: 400 }), fc.constantFrom('cut', 'grow', 'edit', 'other'), text).map(([s, k, how, other]) => {
  if (how === 'cut') return [s, s.slice(0, Math.max(0, s.length - k))] as const;
  if (how === 'grow') return [s, s + 'x'.repeat(k)] as const;
  if (how === 'edit') return [s, s.slice(0, k) + 'q' + s.slice(k + 1)] as const;
  return [s, other] as const;
});
const threshold = fc.oneof(fc.constantFrom(0.5, 0.8, 0.9, 0.95, 1), fc.double({ min: 0.01, max: 1, noNaN: true }));

afterEach(() => {
  setLengthExit(true);
});

function atLeast(a: unknown, b: unknown, min: number): number {
  const x = summarizeArgs(a).slice();
  const y = summarizeArgs(b).slice();
  return summarySimilarityAtLeast(x, 0, y, 0, min, min);
}

describe('summary similarity length exit', () => {
  it('should answer as without the exit at any threshold', () => {
    const before = setLengthExit(true);
    let longOnes = 0;
    fc.assert(
      fc.property(pair, threshold, fc.boolean(), ([s, t], min, nested) => {
        const a = nested ? { path: s, n: 1 } : [s];
        const b = nested ? { path: t, n: 1 } : [t];
        if (s.length > STRING_WHOLE || t.length > STRING_WHOLE) longOnes++;
        setLengthExit(false);
        const slow = atLeast(a, b, min);
        setLengthExit(true);
        const fast = atLeast(a, b, min);
        expect(fast >= min).toBe(slow >= min);
        if (slow >= min) expect(fast).toBe(slow);
      }),
      { numRuns: runs(800) },
    );
    expect(longOnes, "long strings").toBeGreaterThan(0);
    // the exit was taken (pairs of far lengths read no units)
    expect(setLengthExit(true), "exits").toBeGreaterThan(before);
  });

  it('should stop at the lengths for strings of far lengths, and read on for near ones', () => {
    const s = 'alpha beta gamma '.repeat(10).trimEnd();
    const before = setLengthExit(true);
    expect(atLeast({ q: s }, { q: s.slice(0, 100) }, 0.8)).toBeLessThan(0.8);
    const after = setLengthExit(true);
    expect(after).toBe(before + 1);
    // one more unit, within a word: read, and similar
    expect(atLeast({ q: s }, { q: `${s}s` }, 0.8)).toBeGreaterThanOrEqual(0.8);
    expect(setLengthExit(true)).toBe(after);
  });
});
