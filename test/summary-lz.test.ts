/**
 * Similar args' packing of summaries over 256 B (src/state/summary-lz.ts, branch mem39): what it packs
 * unpacks to the very bytes, whatever they are (fast-check, at any offset of the source), it never gives a
 * packed form as long as the bytes, and a summary of two long texts (an edit's old and new text)
 * packs to well under its length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_MAX_BYTES, summarizeArgs } from '../src/text/args-summary.js';
import { repetitiveBytes } from './helpers/repetitive-bytes.js';
import { PACK_OVER, packSummary, unpackSummary } from '../src/state/summary-lz.js';

/** Packs then unpacks the `n` bytes at `from` of `src`; returns the packed length (-1: not packed) and what unpacking gave. */
function roundTrip(src: Uint8Array, from: number, n: number): { m: number; back: Uint8Array | null } {
  const packed = new Uint8Array(SUMMARY_MAX_BYTES);
  const m = packSummary(src, from, n, packed);
  if (m < 0) return { m, back: null };
  // the packed bytes read at an offset of a larger array, as the ring's blocks are
  const block = new Uint8Array(m + 7);
  block.set(packed.subarray(0, m), 5);
  const out = new Uint8Array(SUMMARY_MAX_BYTES);
  const written = unpackSummary(block, 5, m, out);
  return { m, back: out.slice(0, written) };
}

describe('summary packing', () => {
  it('should unpack to the very bytes packed, or not pack them, for any bytes at any offset', () => {
    fc.assert(
      fc.property(fc.oneof(repetitiveBytes, fc.uint8Array({ maxLength: 1500 })), fc.nat(20), fc.nat(20), (bytes, before, after) => {
        const src = new Uint8Array(before + bytes.length + after).fill(0xaa);
        src.set(bytes, before);
        const { m, back } = roundTrip(src, before, bytes.length);
        if (m < 0) return;
        expect(m).toBeLessThan(bytes.length);
        expect(back).toEqual(bytes);
      }),
      { numRuns: 400 },
    );
  });

  it('should not pack bytes with nothing repeated', () => {
    let x = 2463534242;
    const noise = Uint8Array.from({ length: 600 }, () => {
      // xorshift32: no 4-byte group repeats in 600 bytes of it
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x >>> 24;
    });
    expect(packSummary(noise, 0, noise.length, new Uint8Array(SUMMARY_MAX_BYTES))).toBe(-1);
  });

  it('should pack a long text\'s summary to well under its length', () => {
    const content = Array.from({ length: 60 }, (_, i) => `export function handler${i}(request: Request): Response {\n  return new Response('ok ${i}');\n}\n`).join('');
    const summary = summarizeArgs({ file_path: '/repo/src/handlers.ts', old_string: content, new_string: content.replaceAll('ok', 'fine') });
    expect(summary.length).toBeGreaterThan(PACK_OVER);
    const { m, back } = roundTrip(summary, 0, summary.length);
    expect(m).toBeGreaterThan(0);
    expect(m).toBeLessThan(summary.length / 2);
    expect(back).toEqual(summary);
  });
});
