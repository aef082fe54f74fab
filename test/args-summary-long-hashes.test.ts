/**
 * A long string's summary (src/text/args-summary.ts) keeps polynomial hashes of all but its last
 * STRING_KEPT units (`prefix`) and of all but its first (`suffix`), in two bases; the summary takes them
 * two units at a time. They are the plain definition's (`stringHash`, unit-hash.ts) for strings of every
 * length past STRING_WHOLE, odd and even, narrow and wide, lone surrogates included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STRING_KEPT, STRING_WHOLE, S_LONG, summarizeArgs } from '../src/text/args-summary.js';
import { BASE_1, BASE_2, stringHash } from '../src/text/unit-hash.js';

/** The four hashes a LONG node keeps, after its tag, length and width bytes. */
function keptHashes(s: string): number[] {
  const b = summarizeArgs(s);
  expect(b[0]).toBe(S_LONG);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return [6, 10, 14, 18].map((o) => dv.getUint32(o, true));
}

function plainHashes(s: string): number[] {
  const n = s.length;
  const K = STRING_KEPT;
  return [stringHash(s, 0, n - K, BASE_1), stringHash(s, 0, n - K, BASE_2), stringHash(s, K, n, BASE_1), stringHash(s, K, n, BASE_2)];
}

const unit = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0, max: 0xffff }),
  fc.constantFrom(0xd800, 0xdfff, 0xffff, 0x00ff, 0x0100),
);

describe('a long string summary keeps the plain hashes of its prefix and suffix', () => {
  it('on random strings of every length past STRING_WHOLE, odd and even', () => {
    fc.assert(
      fc.property(fc.array(unit, { minLength: STRING_WHOLE + 1, maxLength: STRING_WHOLE + 700 }), (units) => {
        const s = String.fromCharCode(...units);
        expect(keptHashes(s)).toEqual(plainHashes(s));
      }),
      { numRuns: 300 },
    );
  });

  it('at the lengths where the middle is empty, one unit or two', () => {
    for (const n of [STRING_WHOLE + 1, STRING_WHOLE + 2, STRING_WHOLE + 3, STRING_WHOLE + 4]) {
      const s = Array.from({ length: n }, (_, i) => String.fromCharCode(0x41 + ((i * 7) % 26))).join('');
      expect(keptHashes(s)).toEqual(plainHashes(s));
    }
  });
});
