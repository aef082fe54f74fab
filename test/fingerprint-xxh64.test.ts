import fc from 'fast-check';
import xxhash from 'xxhash-wasm';
import { describe, expect, it } from 'vitest';
import { toBigInt, u64 } from '../src/fingerprint/u64.js';
import { xxh64 } from '../src/fingerprint/xxh64.js';
import { moduleXxh64 } from '../src/wasm/module-xxh64.js';

const { h64Raw } = await xxhash();

function ours(bytes: Uint8Array, seed: bigint): bigint {
  const lo = xxh64(bytes, 0, bytes.length, Number(seed >> 32n), Number(seed & 0xffffffffn));
  return toBigInt(u64.hi, lo);
}

describe('xxh64 reference', () => {
  it('should match xxhash-wasm on every length from 0 to 300 bytes and edge seeds', () => {
    for (let n = 0; n <= 300; n++) {
      const b = new Uint8Array(n).map((_, i) => (i * 131 + n * 7) & 255);
      for (const seed of [0n, 1n, 0x9e3779b185ebca87n, 0xffffffffffffffffn]) expect(ours(b, seed)).toBe(h64Raw(b, seed));
    }
  });

  it('should match xxhash-wasm on random bytes and seeds', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (bytes, seed) => {
        expect(ours(bytes, seed)).toBe(h64Raw(bytes, seed));
      }),
      { numRuns: 500 },
    );
  });

  it('should hash a sub-range without reading outside it', () => {
    const whole = new Uint8Array([9, 9, 1, 2, 3, 4, 5, 9, 9]);
    const lo = xxh64(whole, 2, 7, 0, 0);
    expect(toBigInt(u64.hi, lo)).toBe(h64Raw(new Uint8Array([1, 2, 3, 4, 5]), 0n));
  });
});

describe('xxh64 in the module, of host bytes (snapshot checksums)', () => {
  it('should give what the TypeScript xxh64 gives, for any bytes and range', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = a % (bytes.length + 1);
        const end = start + (b % (bytes.length - start + 1));
        const lo = moduleXxh64(bytes, start, end);
        const got = toBigInt(u64.hi, lo);
        const refLo = xxh64(bytes, start, end, 0, 0);
        expect(got).toBe(toBigInt(u64.hi, refLo));
      }),
      { numRuns: 300 },
    );
  });
});
