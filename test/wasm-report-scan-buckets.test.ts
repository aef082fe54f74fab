/**
 * The module scan's lane classes are products of nibble sets (assembly/report-lanes.ts): set B's eight
 * buckets (up/wor, a digit run, err/exc, fai/fat, pan/tra, a cross mark, the notes, the status words) let
 * through bytes no pattern begins with (`+co`, `Xcokay`, `(pa`, `pra`, `tan`, `sha`), which the scalar
 * checks must turn away. Every byte of a bucket's product, each in front of each pattern's tail, at every
 * lane of a block and cut at the text's end, gives the bits of the byte-by-byte twin; so do random texts of
 * such pieces, in mixed case, beside non-ASCII characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportScan, reportScanBytewise } from '../src/wasm/module-report-scan.js';

/** Bytes that pass a first-byte nibble test of some bucket, and the ASCII ones next to them. */
const FIRSTS = ['[', '(', 'X', '+', '"', 'R', 'x', 'h', 'p', 't', 'P', 'T', 'q', 'u', 'U', 'w', 'W', 'e', 'E', 'f', 'F', 's', 'S', 'v', '0', '7', 'é', '\u2713'];
/** What may follow a bucket's first byte: the patterns' tails, and near misses. */
const TAILS = [
  'the', 'python', 'current', 'compiled', 'bash', 'cokay', 'pa', 'ra', 'an', 'anic', 'raceback', 'raceba\u212a', 'rror', 'xception', 'ail', 'atal', 'tatus:', 'TATUS =',
  'tate"=', 'hase :', 'hase\u00a0:', 'ha', 'p to date', 'p-to-date', 'orking tree clean', 'pr', ' passed', ' errors', ' failed', ' issue', 'ok', '',
];

describe("the module scan's merged lane buckets", () => {
  it('should turn away every byte its buckets let through, at every lane, as the byte-by-byte twin does', () => {
    for (const f of FIRSTS) {
      for (const tail of TAILS) {
        for (const t of [f + tail, f.toUpperCase() + tail.toUpperCase()]) {
          for (let n = 0; n < 18; n++) {
            for (const s of [`${'x'.repeat(n)}${t}`, `${' '.repeat(n)}${t} `, `${'é'.repeat(n >> 1)}${'-'.repeat(n & 1)}${t}é`]) {
              expect(reportScan(s), s).toBe(reportScanBytewise(s));
              expect(reportScan(s, true), s).toBe(reportScanBytewise(s, true));
            }
          }
        }
      }
    }
  });

  it('should give the bits of the byte-by-byte twin on random texts of bucket pieces', () => {
    const piece = fc.oneof(
      fc.tuple(fc.constantFrom(...FIRSTS), fc.constantFrom(...TAILS), fc.boolean()).map(([f, t, up]) => (up ? (f + t).toUpperCase() : f + t)),
      fc.constantFrom(' ', '\n', '.', '_', 'é', '日', '❌', '✗', '\u00a0'),
      fc.string({ maxLength: 4 }),
    );
    const text = fc.tuple(fc.integer({ min: 0, max: 31 }), fc.array(piece, { maxLength: 24 })).map(([n, parts]) => `${'y'.repeat(n)}${parts.join('')}`);
    fc.assert(
      fc.property(text, fc.boolean(), (t, ack) => reportScan(t, ack) === reportScanBytewise(t, ack)),
      { numRuns: 20_000 },
    );
  });
});
