/**
 * hostile35: a record larger than the module's input area was begun again each time the area doubled (256
 * KiB, 512 KiB, ... until it fit), each beginning listing and walking the args' objects again: one
 * `LoopDetector.check` of `{a: <object of 2^20 keys>, b: <3.9 MiB string>}` took 4.0-4.5 s of CPU where
 * the object alone took 2.1-2.2 s. A chunk's first record is now walked whole even past the area's end, its
 * size counted (encode-value.ts `counting`), and the area grows once to that size: the record is written
 * twice at most, its objects listed once more than a call that fits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { type ArgsPlan, RecordWriter } from '../src/wasm/record-writer.js';
import { EncodeOverflow } from '../src/wasm/encode-value.js';
import { expectEnginesAgree } from './helpers/engine-signatures.js';
import { callsDuring } from './helpers/method-calls.js';
import { runs } from './helpers/streams.js';

/** Counts RecordWriter#write calls while `f` runs. */
const writesDuring = (f: () => void): number => callsDuring(RecordWriter.prototype, 'write', f);

describe('a record larger than the input area', () => {
  it('should be written twice at most, its objects listed once more than when it fits', () => {
    // an object past the member cap (one marker in the record, but its keys listed for their count) whose
    // listings are counted, and a string that makes the record pass 256 KiB, 512 KiB, 1 MiB and 2 MiB
    const o: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) o['k' + i] = i;
    let listings = 0;
    const wide = new Proxy(o, {
      ownKeys(t) {
        listings++;
        return Reflect.ownKeys(t);
      },
    });
    const d = new LoopDetector({ engine: 'wasm' });
    try {
      d.check({ tool: 'warm', args: { q: 1 } });
      const big = 'x'.repeat(2 << 20);
      const writes = writesDuring(() => d.check({ tool: 't', args: { a: wide, b: big } }));
      const listedLarge = listings;
      // land: 5 writes (the record begun at 256 KiB, 512 KiB, 1 MiB, 2 MiB and 4 MiB)
      expect(writes).toBeLessThanOrEqual(2);
      // the same object in a call that fits the area now grown: the other walks of a call list it as often
      listings = 0;
      expect(writesDuring(() => d.check({ tool: 't', args: { a: wide } }))).toBe(1);
      expect(listedLarge - listings).toBeLessThanOrEqual(1);
    } finally {
      d.dispose();
    }
  });

  it('should give the reference walk\'s signatures and verdicts for records counted past the area\'s end', () => {
    // each call larger than the last, so that each passes the area grown for the one before; strings of
    // 1-, 2-, 3- and 4-byte UTF-8 and lone surrogates (counted as U+FFFD's 3 bytes), nested and wide objects,
    // results of objects (masked) and of text
    const o: Record<string, number> = {};
    for (let i = 0; i < 17_000; i++) o['k' + i] = i;
    const piece = (n: number, k: number): string => ['ab', 'é', '€', '😀', '\ud800x', 'x\udc00'][k % 6]!.repeat(n);
    const events: ToolEvent[] = [];
    for (let k = 0; k < 6; k++) {
      const n = (150_000 << k) / 4;
      const args = { path: `/tmp/f${k % 2}`, text: piece(n, k), nested: { list: [piece(n >> 2, k + 1), 1.5, null, true, { deep: piece(n >> 3, k + 2) }], wide: o } };
      events.push({ tool: 'Edit', args, result: k % 2 === 0 ? { out: piece(n >> 1, k + 3), code: 0 } : piece(n, k + 4) });
      events.push({ tool: 'Edit', args, error: k % 3 === 0 ? `failed: ${piece(64, k)}` : undefined });
    }
    expectEnginesAgree(events);
  });

  it('should count the size the whole record takes, writing nothing past the area\'s end', () => {
    const size = 1 << 16;
    const buf = new ArrayBuffer(size);
    const u8 = new Uint8Array(buf);
    const dv = new DataView(buf);
    const writer = new RecordWriter();
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('\ud800', 'x\udfff', 'é'.repeat(300)));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 6 }), fc.dictionary(text, tie('v'), { maxKeys: 6 })),
    })).v;
    const plan = (v: unknown): ArgsPlan => ({ value: v, normalised: false, viaHost: false, summarize: true, summaryAt: -1, summaryLength: 0 });
    fc.assert(
      fc.property(value, fc.option(value), fc.option(text), fc.nat(), (args, result, error, cut) => {
        const e: ToolEvent = { tool: 'Edit', args, ...(result === null ? {} : { result }), ...(error === null ? {} : { error }) };
        const whole = writer.write(u8, dv, 0, size, 1, e, plan(args), null, 64, true, { errorText: undefined, infra: false });
        // an area ending anywhere before the record's end: counted to the same size, nothing past its end written
        const end = 8 * (cut % (whole >>> 3));
        u8.fill(0xa5);
        const counted = writer.write(u8, dv, 0, end, 1, e, plan(args), null, 64, true, { errorText: undefined, infra: false }, true);
        expect(counted).toBe(whole);
        expect(u8.subarray(end).every((b) => b === 0xa5)).toBe(true);
        // without counting, it does not fit
        expect(() => writer.write(u8, dv, 0, end, 1, e, plan(args), null, 64, true, { errorText: undefined, infra: false })).toThrow(EncodeOverflow);
      }),
      { numRuns: runs(300) },
    );
  });
});
