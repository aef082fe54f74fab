/**
 * The module's sketchReaches (assembly/tokens.ts: a SIMD block merge that stops once the answer is
 * settled) against straightforward references, over random sorted lists:
 * - `jaccardSketch(...) >= threshold` from src/text/token-set.ts (the TypeScript twin that defines the
 *   semantics), for sketches as the engine makes them (the k smallest values of a set of na values);
 * - the scalar merge it replaced (transcribed below), for any lengths and set sizes, sketches or not.
 * Memory after each list holds values of the other list, so a merge reading past a list's end would count
 * matches that are not there.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jaccardSketch } from '../src/text/token-set.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const NONE = 0xffffffff;

/** The module's answer for lists `a` and `b` (at `shift` bytes past 16-byte alignment), as sketchReaches takes them. */
function wasmReaches(a: readonly number[], la: number, na: number, b: readonly number[], lb: number, nb: number, k: number, threshold: number, shift: number): boolean {
  const inst = sharedInstance();
  const pad = 16;
  const base = inst.exports.reserveScratch(4 * (a.length + b.length + 2 * pad) + 64);
  const at = ((base + 15) & ~15) + shift;
  const pa = at;
  const pb = at + 4 * (a.length + pad);
  const { u32 } = inst.views();
  // each list, then the other list's values (and the list's own first one) where a merge must not look
  const fill = (p: number, xs: readonly number[], len: number, other: readonly number[]) => {
    const junk = [...other, ...xs.slice(0, 1)];
    for (let i = 0; i < xs.length + pad; i++) u32[(p >>> 2) + i] = i < len ? (xs[i] as number) : junk.length === 0 ? 0 : (junk[i % junk.length] as number);
  };
  fill(pa, a, la, b);
  fill(pb, b, lb, a);
  const needFull = inst.exports.leastCommonFull(k, threshold) >>> 0;
  return inst.exports.sketchReaches(pa, la, na, pb, lb, nb, k, threshold, needFull) !== 0;
}

// ---- the scalar merge sketchReaches was before the block merge (commit 35ead57), transcribed ----

/** The module's jaccardSketch (assembly/tokens.ts), transcribed. */
function jaccardSketchModule(a: readonly number[], la: number, na: number, b: readonly number[], lb: number, nb: number, k: number): number {
  if (na === 0 && nb === 0) return 0;
  if (na <= k && nb <= k) {
    let i = 0;
    let j = 0;
    let c = 0;
    while (i < la && j < lb) {
      const x = a[i] as number;
      const y = b[j] as number;
      if (x <= y) i++;
      if (y <= x) j++;
      if (x === y) c++;
    }
    return c / (na + nb - c);
  }
  let i = 0;
  let j = 0;
  let taken = 0;
  let both = 0;
  while (taken < k && i < la && j < lb) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x <= y) i++;
    if (y <= x) j++;
    if (x === y) both++;
    taken++;
  }
  if (taken < k) taken = Math.min(taken + (la - i) + (lb - j), k);
  return taken === 0 ? 0 : both / taken;
}

/** The fewest common values c with c / (na + nb - c) >= threshold, or NONE. */
function leastCommonExact(na: number, nb: number, threshold: number): number {
  const m = Math.min(na, nb);
  for (let c = 0; c <= m; c++) if (c / (na + nb - c) >= threshold) return c;
  return NONE;
}

/** The fewest common values c with c / k >= threshold, or NONE. */
function leastCommonFull(k: number, threshold: number): number {
  for (let c = 0; c <= k; c++) if (c / k >= threshold) return c;
  return NONE;
}

/** The scalar sketchReaches of commit 35ead57 (a merge one value at a time, same pruning), transcribed. */
function scalarReaches(a: readonly number[], la: number, na: number, b: readonly number[], lb: number, nb: number, k: number, threshold: number): boolean {
  if (na === 0 && nb === 0) return 0 >= threshold;
  let need: number;
  if (na <= k && nb <= k) need = leastCommonExact(na, nb, threshold);
  else if (la === k && lb === k) need = leastCommonFull(k, threshold);
  else return jaccardSketchModule(a, la, na, b, lb, nb, k) >= threshold;
  if (need === NONE) return false;
  const full = !(na <= k && nb <= k);
  if (need > Math.min(la, lb)) return false;
  let i = 0;
  let j = 0;
  let taken = 0;
  let both = 0;
  while ((!full || taken < k) && i < la && j < lb) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x <= y) i++;
    if (y <= x) j++;
    if (x === y) both++;
    taken++;
    let left = Math.min(la - i, lb - j);
    if (full && k - taken < left) left = k - taken;
    if (both + left < need) return false;
  }
  return both >= need;
}

// ---- random inputs ----

/** u32 values, with the extremes (0, 2^32 - 1) and near neighbours likely. */
const value = fc.oneof(fc.constantFrom(0, 1, 2, 0x7fffffff, 0x80000000, NONE - 1, NONE), fc.nat({ max: 40 }), fc.integer({ min: 0, max: NONE }));

/** Sketch sizes: small, around a block (4), the default 24, and others up to MAX_SKETCH_K (64). */
const sketchK = fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(16, 23, 24, 25, 28, 64), fc.integer({ min: 1, max: 64 }));

/** Thresholds: the ends, the default, any in [0, 1], ratios that land exactly on a count, and a few outside. */
const threshold = fc.oneof(
  fc.constantFrom(0, 1, 0.65, 0.5, 1 / 3, 2 / 3, -0.5, 1.5),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.tuple(fc.nat({ max: 64 }), fc.integer({ min: 1, max: 64 })).map(([c, d]) => Math.min(c, d) / d),
);

/**
 * Two sets as the engine sees them: drawn from one pool of values, each value in both sets with a share
 * chosen per case (from none to all, so that sparse and dense overlaps, and common values only late in the
 * lists, all happen), else in A or in B (again with a share per case), or the two sets equal; then sorted.
 */
const twoSets = fc
  .tuple(fc.uniqueArray(value, { maxLength: 90 }), fc.array(fc.nat({ max: 99 }), { minLength: 90, maxLength: 90 }), fc.nat({ max: 100 }), fc.nat({ max: 100 }), fc.boolean())
  .map(([pool, where, shareBoth, shareA, equal]) => {
    const sorted = [...pool].sort((x, y) => x - y);
    // 0: A only, 1: B only, 2: both
    const side = (i: number): number => {
      const w = where[i] as number;
      if (equal || w < shareBoth) return 2;
      return (w - shareBoth) * 100 < (100 - shareBoth) * shareA ? 0 : 1;
    };
    const a = sorted.filter((_, i) => side(i) !== 1);
    const b = sorted.filter((_, i) => side(i) !== 0);
    return { a, b };
  });

describe('WebAssembly sketchReaches (SIMD block merge) = straightforward references', () => {
  it('should answer jaccardSketch(a, na, b, nb, k) >= threshold for sketches of any two sets', () => {
    fc.assert(
      fc.property(twoSets, sketchK, threshold, fc.constantFrom(0, 4, 8, 12), ({ a, b }, k, t, shift) => {
        // the engine's sketches: the k smallest values of each set, with the set sizes
        const sa = a.slice(0, k);
        const sb = b.slice(0, k);
        const want = jaccardSketch(Uint32Array.from(sa), a.length, Uint32Array.from(sb), b.length, k) >= t;
        expect(wasmReaches(sa, sa.length, a.length, sb, sb.length, b.length, k, t, shift)).toBe(want);
        expect(scalarReaches(sa, sa.length, a.length, sb, sb.length, b.length, k, t)).toBe(want);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should answer as the scalar merge did for any list lengths and set sizes', () => {
    fc.assert(
      fc.property(twoSets, fc.oneof(sketchK, fc.constant(0)), threshold, fc.nat({ max: 100 }), fc.nat({ max: 100 }), fc.nat({ max: 100 }), fc.nat({ max: 100 }), fc.boolean(), (s, k, t, la0, lb0, na0, nb0, fit) => {
        // lengths: often full sketches (k), else anything up to the list
        const la = Math.min(s.a.length, fit ? k : la0);
        const lb = Math.min(s.b.length, fit ? k : lb0);
        const na = fit && la < k ? la : na0;
        const nb = fit && lb < k ? lb : nb0;
        expect(wasmReaches(s.a, la, na, s.b, lb, nb, k, t, 4)).toBe(scalarReaches(s.a, la, na, s.b, lb, nb, k, t));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('should get the edge cases right: empty lists, equal lists, the k boundary, thresholds 0 and 1', () => {
    const seq = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, i) => from + i * step);
    const both = (a: number[], na: number, b: number[], nb: number, k: number, t: number) => {
      const sa = a.slice(0, k);
      const sb = b.slice(0, k);
      const want = jaccardSketch(Uint32Array.from(sa), na, Uint32Array.from(sb), nb, k) >= t;
      for (const shift of [0, 4]) expect(wasmReaches(sa, sa.length, na, sb, sb.length, nb, k, t, shift), `${JSON.stringify({ a, na, b, nb, k, t })}`).toBe(want);
      return want;
    };
    // empty: similarity 0
    expect(both([], 0, [], 0, 24, 0)).toBe(true);
    expect(both([], 0, [], 0, 24, 0.65)).toBe(false);
    expect(both([], 0, seq(1, 5), 5, 24, 0)).toBe(true);
    expect(both([], 0, seq(1, 5), 5, 24, 0.01)).toBe(false);
    // equal lists: similarity 1, at any size and k
    for (const n of [1, 3, 4, 5, 8, 23, 24, 25, 40]) for (const k of [1, 4, 5, 24]) expect(both(seq(10, n), n, seq(10, n), n, k, 1)).toBe(true);
    // the k boundary: 24 values each, 16 shared (16/32 = 0.5 exact) against 25 values (full sketches)
    expect(both(seq(0, 24), 24, [...seq(0, 16), ...seq(100, 8)], 24, 24, 0.5)).toBe(true);
    expect(both(seq(0, 24), 24, [...seq(0, 16), ...seq(100, 8)], 24, 24, 0.51)).toBe(false);
    expect(both(seq(0, 25), 25, [...seq(0, 16), ...seq(100, 9)], 25, 24, 16 / 24)).toBe(true);
    expect(both(seq(0, 25), 25, [...seq(0, 16), ...seq(100, 9)], 25, 24, 17 / 24)).toBe(false);
    // full sketches: common values past the k smallest of the union do not count (interleaved lists
    // share their last 12 values, but those lie beyond the 24 smallest of the union)
    const a = [...seq(0, 12, 2), ...seq(1000, 12)];
    const b = [...seq(1, 12, 2), ...seq(1000, 12)];
    expect(both(a, 30, b, 30, 24, 0.01)).toBe(false);
    expect(both(a, 30, b, 30, 24, 0)).toBe(true);
    // the first common value (100) found in a pair of blocks, a[15] = b[11]: the 27th smallest of the
    // union, so it does not count
    const c = [...seq(0, 15, 2), 100, ...seq(101, 8)];
    const d = [...seq(1, 11, 2), 100, ...seq(200, 12)];
    expect(both(c, 30, d, 30, 24, 1 / 24)).toBe(false);
    expect(both(c, 30, d, 30, 24, 0)).toBe(true);
    expect(both(c, 30, d, 30, 28, 1 / 28)).toBe(true);
    // lists of different lengths, one shorter than k
    expect(both(seq(0, 6), 6, seq(0, 20), 20, 24, 0.3)).toBe(true);
    expect(both(seq(0, 6), 6, seq(0, 20), 20, 24, 0.31)).toBe(false);
  });
});
