/**
 * A check's pass (failure-report.ts `PASS_PATTERNS`) is read in time linear in the output's length, with the
 * answers of the expressions it replaces. The line-start words ("ok", "finished") were written
 * `(?:^|\n)\s*ok`, which read the rest of a run of line breaks from each of them: quadratic, 50 ms on the
 * 4,096 characters an output is read to (90 ms for the seven patterns as one), minutes on a megabyte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_PATTERNS, reportOf, reportsPass } from '../src/text/failure-report.js';

/** The expressions as they were written before (the definition of the language), by index in PASS_PATTERNS. */
const REFERENCE: ReadonlyMap<number, RegExp> = new Map([
  [2, /(?:^|\n)\s*ok\b|\btest result: ok\b/i],
  [5, /(?:^|\n)\s*finished\b|\bbuild (?:succeeded|successful|complete)\b|\bcompiled\b/i],
]);
const REFERENCE_ANY = new RegExp(PASS_PATTERNS.map((p, i) => `(?:${(REFERENCE.get(i) ?? p).source})`).join('|'), 'i');
const ANY = new RegExp(PASS_PATTERNS.map((p) => `(?:${p.source})`).join('|'), 'i');

const PIECES = [
  'ok', 'OK', 'okay', 'finished', 'Finished', 'test result: ok', 'build complete', 'compiled', ' ', '  ', '\t', '\n', '\r', '\r\n',
  '\u2028', '\u00a0', '\v', 'x', '_', '1', ':', '-', 'passed', '3 passed',
];

describe('a pass read in linear time', () => {
  it('should say what the reference expressions say, on texts built from their parts', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        for (const [i, reference] of REFERENCE) expect((PASS_PATTERNS[i] as RegExp).test(text), `${i} ${JSON.stringify(text)}`).toBe(reference.test(text));
        expect(ANY.test(text), JSON.stringify(text)).toBe(REFERENCE_ANY.test(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('should answer at once on 64 KB of line breaks and spaces before a pass or none (a hang guard, not a speed figure)', () => {
    // the reference expressions took seconds on each (quadratic: about an hour on a megabyte)
    const size = 1 << 16;
    // each text with whether PASS_PATTERNS[2] and PASS_PATTERNS[5] find a pass in it
    const texts: [string, boolean, boolean][] = [
      [` ${'\n'.repeat(size)}:\nOK`, true, false],
      [`\u0000${'\n'.repeat(size)}\nCOMPILED`, false, true],
      [`${'\n '.repeat(size / 2)}x`, false, false],
    ];
    const started = performance.now();
    for (const [text, ok, finished] of texts) {
      expect((PASS_PATTERNS[2] as RegExp).test(text)).toBe(ok);
      expect((PASS_PATTERNS[5] as RegExp).test(text)).toBe(finished);
      expect(ANY.test(text)).toBe(ok || finished);
    }
    expect(performance.now() - started).toBeLessThan(2000);
    expect(reportsPass(`${'\n'.repeat(4000)} \tok  pkg (cached)`)).toBe(true);
    expect(reportOf(`${'\n'.repeat(4000)} \t finished`)).toBe(1);
  });
});
