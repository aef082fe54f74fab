/**
 * The engine module's screen of an error text (assembly/error-screen.ts, issue 29) against its TypeScript
 * twin (src/text/error-screen.ts's errorMaySay), and the twin against what it screens for (error-reading.ts's
 * MAY_SAY on the first SAYS_LOOK characters): the module and the twin give the same answer on random texts
 * (MAY_SAY's words and their pieces in either case, ASCII and non-ASCII white space, characters of one to four
 * UTF-8 bytes before them so a word falls either side of the SAYS_LOOK-th unit) and on every error of the
 * real traces (skipped without ../shared); and the screen never says "none" of a text MAY_SAY matches.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAY_SAY, SAYS_LOOK } from '../src/text/error-reading.js';
import { ERROR_SCREEN, errorMaySay } from '../src/text/error-screen.js';
import { errorScreen } from '../src/wasm/module-report-scan.js';
import { ERROR_SAYS_UNITS } from '../src/wasm/generated/abi.js';
import { WasmInstance } from '../src/wasm/wasm-module.js';
import { traceCalls, traceDir } from './helpers/traces.js';

/** MAY_SAY's words and `found`/`expected` with what may follow them. */
const WORDS = ['want', 'denied', 'granted', 'approval', 'user', 'cancel', 'interrupted', 'aborted', 'sibling', 'auth', 'logged', 'required', 'please', 'exactly', 'your', 'parse', 'found', 'in', 'regist', 'must', 'validation', 'input', 'received', 'unexpected', 'invalid', 'replace', 'expected', 'lines', 'occurrences', 'verbatim'];
const SPACES = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028', ''];
const OTHER = ['é', '中', '😀', '\ud800', 'ſ', 'K', 'ı', 'x', '_', '-', 'Traceback (most recent call last):', 'command not found'];

/** A word, a piece of one (its first letters, its last), in any case. */
const word = fc.constantFrom(...WORDS).chain((w) =>
  fc.tuple(fc.integer({ min: 0, max: w.length }), fc.integer({ min: 0, max: 2 }), fc.boolean()).map(([cut, how, upper]) => {
    const x = how === 0 ? w : how === 1 ? w.slice(0, cut) : w.slice(cut);
    return upper ? x.toUpperCase() : x;
  }),
);
const piece = fc.oneof({ weight: 4, arbitrary: word }, { weight: 2, arbitrary: fc.constantFrom(...SPACES) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER) }, { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: 'binary' }) });
/** Filler of characters of one to four UTF-8 bytes (one or two units), to put what follows near the SAYS_LOOK-th unit. */
const filler = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('a', 'é', '中', '😀'), fc.integer({ min: SAYS_LOOK - 40, max: SAYS_LOOK + 4 })).map(([c, n]) => c.repeat(Math.ceil(n / c.length))),
  fc.array(fc.constantFrom('a', 'é', '中', '😀', ' '), { minLength: 250, maxLength: 520 }).map((xs) => xs.join('')),
);
const text = fc.tuple(filler, fc.array(piece, { maxLength: 12 })).map(([f, ps]) => f + ps.join(''));

describe("the module's screen of an error text", () => {
  it('should read as many units as error-reading.ts reads', () => {
    expect(ERROR_SAYS_UNITS).toBe(SAYS_LOOK);
  });

  it('should say yes of every word and spaced phrase MAY_SAY reads, in either case, and no of a text without one', () => {
    for (const x of ['The user declined', 'PLEASE', 'found in', 'found \u00a0in', 'FOUND\t\tIN', 'expected\nlines', 'expected\u2003lines', 'Regist', 'verbatim.']) {
      expect(MAY_SAY.test(x), x).toBe(true);
      expect(errorMaySay(x), x).toBe(true);
      expect(errorScreen(x), x).toBe(true);
    }
    for (const x of ['', 'Traceback (most recent call last):', 'command not found', 'found', 'foundin', 'expected lin', 'ſignal', 'us\u00e9r', 'exit code 1']) {
      expect(MAY_SAY.test(x), x).toBe(false);
      expect(errorMaySay(x), x).toBe(false);
      expect(errorScreen(x), x).toBe(false);
    }
    // a word past the SAYS_LOOK-th unit is not read; a four-byte character is two units
    expect(errorScreen(`${'😀'.repeat(SAYS_LOOK / 2)}user`)).toBe(false);
    expect(errorScreen(`${'😀'.repeat(SAYS_LOOK / 2 - 2)}user`)).toBe(true);
    expect(errorScreen(`${'中'.repeat(SAYS_LOOK - 4)}user`)).toBe(true);
    expect(errorScreen(`${'中'.repeat(SAYS_LOOK - 3)}user`)).toBe(false);
  });

  it('should say "maybe" where a non-ASCII character follows found or expected (\\s may be one)', () => {
    expect(errorMaySay('found\u00e9')).toBe(true);
    expect(errorScreen('found \u00e9')).toBe(true);
    expect(MAY_SAY.test('found \u00e9')).toBe(false);
  });

  it('should give the byte loop\'s answer sixteen bytes at a time, a word at any lane or cut by the text\'s end, whatever lies after it', () => {
    const inst = new WasmInstance();
    const at = inst.exports.reserveBytes(8192);
    const encoder = new TextEncoder();
    const check = (t: string, after: string): void => {
      const u8 = inst.views().u8;
      const n = encoder.encodeInto(t, u8.subarray(at, at + 4096)).written;
      // what lies after the end: the rest of a word, were the end not the end
      u8.fill(0x20, at + n, at + n + 64);
      encoder.encodeInto(after, u8.subarray(at + n, at + n + 64));
      const fast = inst.exports.errorMaySay(at, n);
      expect(fast, JSON.stringify(t)).toBe(inst.exports.errorMaySayBytewise(at, n));
      expect(fast !== 0, JSON.stringify(t)).toBe(errorMaySay(t));
    };
    for (const w of WORDS) {
      for (let k = 0; k < 36; k++) {
        check(`${'x'.repeat(k)}${w}`, '');
        check(`${'é'.repeat(k)}${w.toUpperCase()}-`, '');
        check(`${'x'.repeat(k)}${w.slice(0, -1)}`, w.slice(-1));
      }
    }
    fc.assert(
      fc.property(text, fc.constantFrom('', 'user', ' in', 'lines'), (t, after) => check(t, after)),
      { numRuns: 3000 },
    );
  });

  it('should give the twin\'s answer on random texts, and never "none" of a text MAY_SAY matches', () => {
    fc.assert(
      fc.property(text, (t) => {
        const twin = errorMaySay(t);
        expect(errorScreen(t)).toBe(twin);
        if (MAY_SAY.test(t.slice(0, SAYS_LOOK))) expect(twin).toBe(true);
      }),
      { numRuns: 4000 },
    );
  });

  it.skipIf(traceDir === null)('should give the twin\'s answer on every error of the real traces, and screen most of them out', () => {
    const errors = new Set<string>();
    for (const [, e] of traceCalls()) if (typeof e.error === 'string') errors.add(e.error);
    let none = 0;
    for (const error of errors) {
      const twin = errorMaySay(error);
      expect(errorScreen(error), error.slice(0, 80)).toBe(twin);
      if (MAY_SAY.test(error.slice(0, SAYS_LOOK))) expect(twin).toBe(true);
      if (!twin) none++;
    }
    expect(errors.size).toBeGreaterThan(0);
    expect(none).toBeGreaterThan(errors.size / 2);
    // the screen reads MAY_SAY's words: it is no wider than MAY_SAY on these texts but for \s's "maybe"
    expect(ERROR_SCREEN.flags).toBe('i');
  });
});
