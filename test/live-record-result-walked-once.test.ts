/**
 * A call's result that JSON text cannot hold within its bounds (text/outcome-text.ts) stands, for masking,
 * as its fingerprint in letters. The module's record writer has just encoded the result, so it takes that
 * fingerprint from the encoding (assembly/tree.ts `encodedFp`) rather than walking the value a second time
 * with `hashValue`: LiveGuard.record with a result of 262,144 copies of a 1 MB string took 157-187 ms of CPU,
 * now 55-64 ms. The text is the one the reference (`resultText`, hashValue's fingerprint) gives.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard } from '../src/index.js';
import { MAX_WALK_ELEMENTS } from '../src/fingerprint/element-budget.js';
import { MAX_WALK_UNITS } from '../src/fingerprint/unit-budget.js';
import { OUTCOME_JSON_VALUES, resultText } from '../src/text/outcome-text.js';
import * as A from '../src/wasm/generated/abi.js';
import { type ArgsPlan, RecordWriter } from '../src/wasm/record-writer.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';

/** An array of `n` copies of `s` whose element reads are counted (`reads.n`). */
function countedArray(n: number, s: unknown, reads: { n: number }): unknown[] {
  return new Proxy(Array<unknown>(n).fill(s), {
    get(t, k, r) {
      if (typeof k === 'string' && k.length > 0 && k.charCodeAt(0) >= 48 && k.charCodeAt(0) <= 57) reads.n++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
}

/** The result text the module's record writer writes for `result` (maskResults on). */
function writtenResultText(result: unknown): string {
  const inst = sharedInstance();
  const writer = new RecordWriter();
  writer.hashEncoded = (ptr) => inst.exports.encodedFp(ptr);
  // the module's host-bytes area, made room for a result of a few MB
  const size = 16 << 20;
  const area = inst.exports.reserveBytes(size);
  const { u8, dv } = inst.views();
  const at = (area + 7) & ~7;
  const args = { q: 1 };
  const plan: ArgsPlan = { value: args, normalised: false, viaHost: false, summarize: false, summaryAt: -1, summaryLength: 0 };
  writer.write(u8, dv, at, area + size, 1, { tool: 't', args, result }, plan, null, 64, true, { errorText: undefined, infra: false });
  // sections after the record's head: tool, args, description, result, result text (u32 length, bytes, padded to 4)
  let p = at + A.R_BODY;
  for (let k = 0; k < 4; k++) p += (4 + dv.getUint32(p, true) + 3) & ~3;
  const n = dv.getUint32(p, true);
  return Buffer.from(u8.subarray(p + 4, p + 4 + n)).toString('utf8');
}

describe('a result past JSON text, walked once', () => {
  // against integ (bd04d94): LiveGuard.record reads the 262,144 elements twice (the encoding, then
  // resultText's hashValue): 1 of 1 fails
  it('should read each element of a hostile result once in LiveGuard.record', async () => {
    const n = MAX_WALK_ELEMENTS;
    const big = 'x'.repeat((1 << 20) - 1) + 'y';
    const reads = { n: 0 };
    const g = new LiveGuard();
    await g.record('s', { tool: 't', args: { q: 1 }, result: 'warm' });
    // a record larger than the input area (256 KiB after the first call): walked whole to count its size,
    // then written once the area has grown to it (hostile35: never more than these two walks, where the
    // area's doublings each began the record again)
    await g.record('s', { tool: 't', args: { q: 2 }, result: countedArray(n, big, reads) });
    expect(reads.n).toBeGreaterThanOrEqual(2 * n);
    expect(reads.n).toBeLessThan(2 * n + 16);
    // once the area holds it, the encoding reads each element once; JSON text gives up after a few 1 MB strings
    reads.n = 0;
    await g.record('s', { tool: 't', args: { q: 3 }, result: countedArray(n, big, reads) });
    expect(reads.n).toBeGreaterThanOrEqual(n);
    expect(reads.n).toBeLessThan(n + 16);
  });

  it('should write the text the reference gives, for results JSON text cannot hold', () => {
    const cyclic: Record<string, unknown> = { a: [1, 2, { b: 'c' }] };
    cyclic['self'] = cyclic;
    const results: unknown[] = [
      Array<number>(OUTCOME_JSON_VALUES + 1).fill(7),
      Array<string>(6).fill('y'.repeat(MAX_WALK_UNITS / 4)),
      { many: Array.from({ length: OUTCOME_JSON_VALUES }, (_, i) => ({ i })) },
      cyclic,
      [cyclic, new Map([['k', cyclic]]), 10n ** 30n],
    ];
    for (const r of results) {
      const want = resultText(r);
      expect(want.startsWith('[value ')).toBe(true);
      expect(writtenResultText(r)).toBe(want);
    }
    // results JSON writes are their JSON, as before
    expect(writtenResultText({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });
});
