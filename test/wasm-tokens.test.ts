/**
 * The WebAssembly tokeniser against its TypeScript twin (src/text/token-set.ts): for any text, the same
 * count of distinct tokens and the same bottom-k sketch; and the token hash pinned to known answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_BYTES, STOP_HASHES, tokenHash, tokenSet } from '../src/text/token-set.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { runs } from './helpers/streams.js';

const utf8 = new TextEncoder();

/** The module's sketch and count for `bytes`, with the given caps. */
function wasmTokens(bytes: Uint8Array, maxTokens: number, k: number): { count: number; sketch: number[] } {
  const inst = sharedInstance();
  // the token table: a power of two of at least 16 and 2 x maxTokens slots, so under 4 x maxTokens + 16
  const tableBytes = 4 * (4 * maxTokens + 16);
  const at = inst.exports.reserveScratch(bytes.length + 4 * k + tableBytes + 64);
  const text = at;
  const sketch = (text + bytes.length + 15) & ~15;
  const table = sketch + 4 * k;
  const { u8, u32 } = inst.views();
  u8.set(bytes, text);
  inst.exports.tokenize(text, bytes.length, maxTokens, k, sketch, table);
  const n = inst.exports.lastSketchLen();
  return { count: inst.exports.lastTokenCount(), sketch: Array.from(u32.subarray(sketch >>> 2, (sketch >>> 2) + n)) };
}

/** Text with what tokenising must get right: case, digits, punctuation, multi-byte characters, long runs. */
const piece = fc.oneof(
  fc.constantFrom('Retry', 'RETRY', 'retry', 'the', 'THE', 'and', 'ab', 'AB', 'x1', 'pytest', 'src/app.py', '--verbose', 'naïve', 'Ünïcode', '日本語', 'é', 'éé', 'ééé', '🙂🙂🙂', '2024-05-10T12:00:00Z'),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', 'B', '9', 'é'), minLength: MAX_TOKEN_BYTES - 4, maxLength: MAX_TOKEN_BYTES + 40 }),
);
const separator = fc.constantFrom(' ', '\n', '_', '-', '.', '"', ': ', '\\n');
const text = fc.array(fc.tuple(piece, separator), { maxLength: 80 }).map((ps) => ps.map(([p, s]) => p + s).join(''));

describe('WebAssembly tokeniser = TypeScript twin', () => {
  it('should find the same distinct tokens and keep the same bottom-k sketch, for any text and caps', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 32 }), (t, maxTokens, k) => {
        const bytes = utf8.encode(t);
        const ref = tokenSet(bytes, bytes.length, maxTokens);
        const got = wasmTokens(bytes, maxTokens, k);
        expect(got.count).toBe(ref.count);
        expect(got.sketch).toEqual(Array.from(ref.hashes.subarray(0, k)));
      }),
      { numRuns: runs(500) },
    );
  });

  it('should agree on any bytes, stray continuation bytes and runs of them included', () => {
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x80, 0xbf, 0xc3, 0x41, 0x7a, 0x20)), { maxLength: 400 }).map((b) => Uint8Array.from(b));
    fc.assert(
      fc.property(bytes, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 32 }), (b, maxTokens, k) => {
        const ref = tokenSet(b, b.length, maxTokens);
        const got = wasmTokens(b, maxTokens, k);
        expect(got.count).toBe(ref.count);
        expect(got.sketch).toEqual(Array.from(ref.hashes.subarray(0, k)));
      }),
      { numRuns: runs(500) },
    );
  });

  it('should keep the same sketch whether it fills or not, for sketches of up to 64 values and beyond', () => {
    // the first k distinct hashes are sorted at once when the sketch fills (or at the end), the rest inserted
    const word = fc.string({ unit: fc.constantFrom('a', 'e', 'k', 'R', 'z', '7', 'é'), minLength: 3, maxLength: 9 });
    const many = fc.oneof(text, fc.array(word, { minLength: 40, maxLength: 220 }).map((ws) => ws.join(' ')));
    fc.assert(
      fc.property(many, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 33, max: 96 }), (t, maxTokens, k) => {
        const bytes = utf8.encode(t);
        const ref = tokenSet(bytes, bytes.length, maxTokens);
        const got = wasmTokens(bytes, maxTokens, k);
        expect(got.count).toBe(ref.count);
        expect(got.sketch).toEqual(Array.from(ref.hashes.subarray(0, k)));
      }),
      { numRuns: runs(200) },
    );
  });

  it('should lowercase ASCII letters only, cut tokens at MAX_TOKEN_BYTES, and drop short tokens and stop words', () => {
    const hashes = (t: string) => Array.from(tokenSet(utf8.encode(t), utf8.encode(t).length, 256).hashes);
    expect(hashes('Retry RETRY retry')).toEqual([tokenHash(utf8.encode('retry'))]);
    expect(hashes('ÉCOLE école').length).toBe(2); // non-ASCII letters keep their case
    expect(hashes('ab x1 the and')).toEqual([]);
    expect(hashes(`${'a'.repeat(MAX_TOKEN_BYTES)}b ${'a'.repeat(MAX_TOKEN_BYTES)}c`).length).toBe(1);
    expect(STOP_HASHES.has(tokenHash(utf8.encode('the')))).toBe(true);
  });

  it('should hash tokens as documented (FNV-1a from a tag-keyed basis, then the Murmur3 finaliser)', () => {
    // Known answers, computed independently. Sketches in snapshots hold these values: a change here
    // must come with a new SNAPSHOT_VERSION.
    expect(tokenHash(utf8.encode('loopwatch'))).toBe(0xa8f1602e);
    expect(tokenHash(utf8.encode('retry'))).toBe(0x6b796820);
    expect(tokenHash(utf8.encode('pytest'))).toBe(0xcf05112e);
  });
});
