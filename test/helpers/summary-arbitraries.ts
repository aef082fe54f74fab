/**
 * Arbitraries shared by the tests of similar args' summary made beside the args (one walk, from the value
 * encoding): strings past the summary's hashing threshold, nesting around MAX_ARGS_DEPTH, args past the
 * summary's budget, numbers of every kind.
 */
import fc from 'fast-check';
import { MAX_ARGS_DEPTH } from '../../src/text/args-similarity.js';
import { STRING_WHOLE } from '../../src/text/args-summary.js';

/** Strings past STRING_WHOLE units made of `words`, or with one of `wideWords` at their start, middle or end. */
export function longTextOf(words: fc.Arbitrary<string>, wideWords: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.array(words, { minLength: 90, maxLength: 260 }), fc.option(fc.tuple(wideWords, fc.nat()), { nil: undefined })).map(([ws, wide]) => {
    let s = ws.join('');
    while (s.length <= STRING_WHOLE) s += s;
    if (wide === undefined) return s;
    const i = wide[1] % s.length;
    return s.slice(0, i) + wide[0] + s.slice(i);
  });
}

/** Numbers of every kind a summary tells apart (SMALL, NUMBER, -0, NaN, infinities). */
export const summaryNumber = fc.oneof(
  fc.integer({ min: -200, max: 200 }),
  fc.constantFrom(0.5, -0, NaN, Infinity, -Infinity, 1e21, 127, 128, -128, -129, 255, 2 ** 31, 2 ** 53, Number.MIN_VALUE),
  fc.double(),
);

/** `leaf` nested MAX_ARGS_DEPTH - 3 to + 3 levels down (arrays and objects in turn). */
export function deepOf(leaf: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: MAX_ARGS_DEPTH - 3, max: MAX_ARGS_DEPTH + 3 }), leaf).map(([d, l]) => {
    let v: unknown = l;
    for (let i = 0; i < d; i++) v = i % 2 === 0 ? [v, i] : { k: v, n: i };
    return v;
  });
}

/** Past the budget: many of `long` strings in an array, alone or beside small siblings. */
export function overBudgetOf(long: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.tuple(long, fc.integer({ min: 6, max: 12 }), fc.boolean()).map(([s, n, nested]) => {
    const big = Array.from({ length: n }, (_, i) => `${i}${s}`);
    return nested ? { small: 'x', big, tail: [1, 2] } : big;
  });
}
