/**
 * Similar args compares bounded summaries of args (src/text/args-summary.ts) where it compared the args:
 * every comparison gives the args' own answer (argsSimilarity, to the last bit), on random args of every
 * kind, with strings that differ a little, a word, or at their very ends, short and long; the summary's
 * documented departures (two long strings differing only between the units kept; args past the budget)
 * are checked to answer as documented; and a summary never passes its budget, whatever the args' size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsSimilarity, argsSimilarityAtLeast, replacesWholeWord } from '../src/text/args-similarity.js';
import { STRING_KEPT, STRING_WHOLE, SUMMARY_MAX_BYTES, S_OPAQUE, summarizeArgs } from '../src/text/args-summary.js';
import { summarySimilarity, summarySimilarityAtLeast } from '../src/text/summary-similarity.js';
import { runs } from './helpers/streams.js';

function summary(v: unknown): Uint8Array {
  return summarizeArgs(v).slice();
}

/** The similarity of two args by their summaries. */
function bySummary(a: unknown, b: unknown, ft: number): number {
  return summarySimilarity(summary(a), 0, summary(b), 0, ft);
}

function atLeastBySummary(a: unknown, b: unknown, ft: number, min: number): boolean {
  return summarySimilarityAtLeast(summary(a), 0, summary(b), 0, ft, min) >= min;
}

/** Words and separators strings are made of, so that random strings often share parts. */
const piece = fc.constantFrom('foo', 'fo0', 'bar', 'src', '/', ' ', '.', 'py', '1', '2', '_x', 'é', '語', '\u{1F600}', '-', 'baz qux');
const shortText = fc.array(piece, { maxLength: 12 }).map((xs) => xs.join(''));

/** A long text and a variant of it edited at its start, its end, or (rarely) its middle. */
const bodyWords = fc.array(fc.constantFrom('alpha ', 'beta, ', 'gamma\n', '(x) ', 'x1 ', '--- ', 'é ', '語 '), { minLength: 80, maxLength: 400 }).map((xs) => xs.join(''));
const edit = fc.record({
  at: fc.constantFrom<'start' | 'end'>('start', 'end'),
  // not within the few units (an edit's length) next to the units kept: see args-summary.ts
  offset: fc.nat({ max: STRING_KEPT - 16 }),
  removed: fc.nat({ max: 6 }),
  inserted: fc.constantFrom('', 'z', 'zz', ' ', 'new ', 'alpha', ',', 'é'),
});
function applyEdit(s: string, e: { at: 'start' | 'end'; offset: number; removed: number; inserted: string }): string {
  const at = e.at === 'start' ? Math.min(e.offset, s.length) : Math.max(0, s.length - 1 - e.offset);
  return s.slice(0, at) + e.inserted + s.slice(Math.min(s.length, at + e.removed));
}

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    shortText,
    fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0, NaN, Infinity, 1e21, 127, 128, -128, -129, 255, 2 ** 31, 127.5)),
    fc.constantFrom(null, undefined, true, false, 3n, 2n ** 80n),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'path', 'q', '__proto__', 'é'), tie('v'), { maxKeys: 4 }),
    fc.constantFrom(new Map([[1, 2]]), new Set([1]), new Uint8Array([1, 2]), new Date(0)),
  ),
})).v;

/** Choices a mutation takes, in turn (round and round). */
class Choices {
  private i = 0;
  constructor(private readonly xs: readonly number[]) {}
  next(n: number): number {
    const x = this.xs[this.i++ % this.xs.length] ?? 0;
    return x % n;
  }
}

/** A slightly changed copy of a value: strings edited, a member dropped, changed or added, an element changed. */
function mutate(v: unknown, c: Choices): unknown {
  if (typeof v === 'string') {
    const k = c.next(4);
    if (k === 0 || v.length === 0) return v + (['x', ' y', '0', 'é'][c.next(4)] as string);
    const i = c.next(v.length);
    return k === 1 ? v.slice(0, i) + v.slice(i + 1) : k === 2 ? `${v.slice(0, i)}q${v.slice(i + 1)}` : v;
  }
  if (Array.isArray(v)) return v.map((x) => (c.next(3) === 0 ? mutate(x, c) : x));
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const d = c.next(6);
      if (d === 0) continue;
      out[k] = d === 1 ? mutate(x, c) : x;
    }
    if (c.next(5) === 0) out.extra = 1;
    return out;
  }
  return c.next(4) === 0 ? 7 : v;
}

/** Two args: a random one and either another random one or a near copy of it. */
const pair = fc.tuple(value, fc.option(value, { nil: undefined, freq: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), fc.boolean()).map(([a, other, choices, copy]) => [a, copy || other === undefined ? mutate(a, new Choices(choices)) : other] as const);

describe('similar args over summaries', () => {
  it('should give what the args gave, for random args and near copies of them', () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(0.5, 0.8, 0.9), ([a, b], ft) => {
        expect(bySummary(a, b, ft)).toBe(argsSimilarity(a, b, ft));
        for (const min of [0.5, 0.8, 1]) expect(atLeastBySummary(a, b, ft, min)).toBe(argsSimilarityAtLeast(a, b, ft, min) >= min);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should give what the args gave for long strings edited near their start or end', () => {
    fc.assert(
      fc.property(bodyWords, fc.array(edit, { minLength: 1, maxLength: 2 }), fc.constantFrom('', 'prefix ', 'x'), (body, edits, lead) => {
        const a = lead + body;
        let b = a;
        for (const e of edits) b = applyEdit(b, e);
        for (const [x, y] of [
          [a, b],
          [{ content: a, path: 'a.py' }, { content: b, path: 'a.py' }],
          [[a], [b]],
        ] as const) {
          expect(bySummary(x, y, 0.8)).toBe(argsSimilarity(x, y, 0.8));
          expect(atLeastBySummary(x, y, 0.8, 0.8)).toBe(argsSimilarityAtLeast(x, y, 0.8, 0.8) >= 0.8);
        }
      }),
      { numRuns: runs(1500) },
    );
  });

  it('should take two long strings differing only between the units kept as another target', () => {
    const head = 'h'.repeat(STRING_KEPT + 10);
    const tail = ' t'.repeat(STRING_KEPT);
    const a = `${head} middle word ${tail}`;
    const typo = `${head} middle wrod ${tail}`;
    const spaced = `${head} middle  word ${tail}`;
    expect(replacesWholeWord(a, typo)).toBe(false); // the args said: the same target
    expect(bySummary(a, typo, 0.8)).toBe(0); // the summary cannot see the middle
    expect(bySummary(a, spaced, 0.8)).toBe(0);
    expect(bySummary(a, a.slice(0), 0.8)).toBe(1); // equal strings are equal
    // a change within the units kept is seen exactly
    const near = a.slice(0, 5) + 'x' + a.slice(6);
    expect(bySummary(a, near, 0.8)).toBe(argsSimilarity(a, near, 0.8));
  });

  it('should give what the args gave for one long word (a blob) with words only in the units kept at its end', () => {
    const blob = 'Q'.repeat(5 * STRING_KEPT);
    for (const end of [' end word', ' end', '-', ' x y z']) {
      const a = blob + end;
      for (const b of [blob + end.replace('d', 'q'), blob + end + ' more', `${blob}Q${end}`, blob.slice(1) + end, blob + end.slice(1), `${blob}${end} `]) {
        expect(bySummary(a, b, 0.8)).toBe(argsSimilarity(a, b, 0.8));
        expect(bySummary(b, a, 0.8)).toBe(argsSimilarity(b, a, 0.8));
      }
    }
  });

  it('should keep at most SUMMARY_MAX_BYTES of any args, and args past it as their fingerprint', () => {
    const huge = { content: 'x'.repeat(1 << 20), more: 'y'.repeat(1 << 20) };
    expect(summarizeArgs(huge).length).toBeLessThan(2 * (STRING_WHOLE + 64));
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const s = summarizeArgs(wide);
    expect(s.length).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(s[0]).toBe(S_OPAQUE);
    expect(bySummary(wide, { ...wide }, 0.8)).toBe(1);
    expect(bySummary(wide, { ...wide, k1: 2 }, 0.8)).toBe(0);
    // a member past the budget is compared whole, its siblings as usual: equal rows and a query with a typo
    const rows = Array.from({ length: 2 * SUMMARY_MAX_BYTES }, (_, i) => ({ id: i }));
    const [a, b] = [{ rows, q: 'handleSubmitForm' }, { rows: rows.map((r) => ({ ...r })), q: 'handleSubmitF0rm' }];
    expect(summarizeArgs(a)[0]).not.toBe(S_OPAQUE);
    expect(bySummary(a, b, 0.8)).toBe(argsSimilarity(a, b, 0.8));
    expect(bySummary(a, { ...b, rows: [...rows.slice(1), { id: -1 }] }, 0.8)).toBe(0.5); // other rows: no longer similar
    fc.assert(
      fc.property(value, (v) => {
        expect(summarizeArgs(v).length).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
      }),
      { numRuns: runs(500) },
    );
  });
});

