/** toHex: 16 lowercase hex digits of a 64-bit value given as two 32-bit words, signed or not. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../src/fingerprint/u64.js';

const reference = (hi: number, lo: number): string => (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');

describe('toHex', () => {
  it('should write what toString(16) padded to 8 digits a word writes, for any two 32-bit words', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat({ max: 2 ** 32 - 1 })), fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat({ max: 2 ** 32 - 1 })), (hi, lo) => {
        expect(toHex(hi, lo)).toBe(reference(hi, lo));
      }),
      { numRuns: 2000 },
    );
  });

  it('should pad small words and keep the edges', () => {
    expect(toHex(0, 0)).toBe('0000000000000000');
    expect(toHex(0, 1)).toBe('0000000000000001');
    expect(toHex(0xffffffff, -1)).toBe('ffffffffffffffff');
    expect(toHex(0x00abcdef, 0x10)).toBe('00abcdef00000010');
  });
});
