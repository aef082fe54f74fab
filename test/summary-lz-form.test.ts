/**
 * Similar args' packing (src/state/summary-lz.ts) writes one form only: the greedy LZ4 sequences its header
 * describes, a match looked up by each 4-byte group's hash in a table of 1,024 places (the last place seen
 * wins) and no position inside a match looked up or remembered. Packed bytes are what a session's summary
 * blocks hold, so a faster packer (branch perf48: the group rolled on a byte at a time, the table filled once
 * a packing) must write these very bytes, or the memory figures of docs/speed.md (mem39) move. The
 * reference below is the form written plainly, a group read afresh at every place.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_MAX_BYTES, summarizeArgs } from '../src/text/args-summary.js';
import { repetitiveBytes } from './helpers/repetitive-bytes.js';
import { packSummary } from '../src/state/summary-lz.js';

/** The 4 bytes at `i`, little-endian, as a signed 32-bit number. */
const group = (a: Uint8Array, i: number): number => (a[i] as number) | ((a[i + 1] as number) << 8) | ((a[i + 2] as number) << 16) | ((a[i + 3] as number) << 24);

/** A length's bytes past the 15 a token holds. */
function more(out: number[], n: number): void {
  let r = n - 15;
  for (; r >= 255; r -= 255) out.push(255);
  out.push(r);
}

/** The greedy form of the `n` bytes at `from` of `src`, or null when it would not be shorter than `n` (the packer's -1). */
function reference(src: Uint8Array, from: number, n: number): number[] | null {
  const table = new Map<number, number>();
  const end = from + n;
  const out: number[] = [];
  let anchor = from;
  let i = from;
  while (i < end - 5) {
    const v = group(src, i);
    const k = Math.imul(v, -1640531535) >>> 22;
    const c = table.get(k);
    table.set(k, i);
    if (c === undefined || group(src, c) !== v) {
      i++;
      continue;
    }
    let length = 4;
    while (i + length < end && src[c + length] === src[i + length]) length++;
    const literals = i - anchor;
    if (out.length + 1 + literals + (literals >> 7) + 1 + 2 + ((length - 4) >> 7) + 1 >= n) return null;
    out.push((Math.min(literals, 15) << 4) | Math.min(length - 4, 15));
    if (literals >= 15) more(out, literals);
    out.push(...src.subarray(anchor, i));
    out.push((i - c) & 0xff, (i - c) >>> 8);
    if (length - 4 >= 15) more(out, length - 4);
    i += length;
    anchor = i;
  }
  const literals = end - anchor;
  if (out.length + 1 + literals + (literals >> 7) + 1 >= n) return null;
  out.push(Math.min(literals, 15) << 4);
  if (literals >= 15) more(out, literals);
  out.push(...src.subarray(anchor, end));
  return out;
}

/** What packSummary writes for the `n` bytes at `from` of `src` (null: -1). */
function packed(src: Uint8Array, from: number, n: number): number[] | null {
  const out = new Uint8Array(SUMMARY_MAX_BYTES);
  const m = packSummary(src, from, n, out);
  return m < 0 ? null : Array.from(out.subarray(0, m));
}

describe('summary packing: the one form', () => {
  it('should write the greedy form byte for byte, for any bytes at any offset, packing after packing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(repetitiveBytes, fc.uint8Array({ maxLength: 1500 })), fc.nat(20)), { minLength: 1, maxLength: 3 }), (inputs) => {
        // several packings in a row: nothing one leaves in the table may change the next one's form
        for (const [bytes, before] of inputs) {
          const src = new Uint8Array(before + bytes.length + 9).fill(0xaa);
          src.set(bytes, before);
          expect(packed(src, before, bytes.length)).toEqual(reference(src, before, bytes.length));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('should write the greedy form of real summaries: long texts, paths and numbers', () => {
    const content = Array.from({ length: 40 }, (_, i) => `export function handler${i}(request: Request): Response {\n  return new Response('ok ${i}');\n}\n`).join('');
    const summaries = [
      summarizeArgs({ file_path: '/repo/src/handlers.ts', old_string: content, new_string: content.replaceAll('ok', 'fine') }),
      summarizeArgs({ command: `cd /repo && ${'npx vitest run test/a.test.ts && '.repeat(30)}echo done`, timeout: 120000 }),
      summarizeArgs({ todos: Array.from({ length: 30 }, (_, i) => ({ content: `step ${i}: check the parser's ${i % 3 === 0 ? 'errors' : 'numbers'}`, status: i < 10 ? 'completed' : 'pending', id: String(i) })) }),
    ];
    let packedSome = 0;
    for (const s of summaries) {
      const got = packed(s, 0, s.length);
      expect(got).toEqual(reference(s, 0, s.length));
      if (got !== null) packedSome++;
    }
    expect(packedSome).toBeGreaterThan(0);
  });
});
