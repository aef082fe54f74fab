/**
 * A pool worker's args read from a batch (EncodedArgs) are held without an ArrayBuffer of their own (a latin1
 * string on V8's heap; docs/speed.md "perf47") and without a view of the batch: what a worker keeps adds
 * nothing to `arrayBuffers`, and the args answer the same after the batch's buffer is overwritten and gone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENCODED, readOp, writeCheck } from '../src/pool/event-packing.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { ArgsEncoder } from '../src/wasm/args-encoder.js';
import { EncodedArgs } from '../src/wasm/encoded-args.js';

/** Packs `all` as a pool's calling thread does (one check a value, args encoded for the module). */
function packed(all: readonly unknown[]): { buffer: ArrayBuffer; length: number } {
  const w = new ByteWriter(1 << 16);
  const encoder = new ArgsEncoder(ENCODED, 64, () => true);
  for (const [i, a] of all.entries()) writeCheck(w, `s${i % 7}`, { tool: 'Bash', args: a, result: undefined, error: undefined, text: undefined, description: undefined, step: undefined, round: undefined } as never, encoder);
  const { buffer, length } = w.take();
  return { buffer: buffer as ArrayBuffer, length };
}

/** The checks' args as a worker reads them from a batch. */
function readArgs(batch: { buffer: ArrayBuffer; length: number }): unknown[] {
  const r = new ByteReader(new Uint8Array(batch.buffer, 0, batch.length));
  const args: unknown[] = [];
  while (r.more()) {
    const op = readOp(r);
    args.push(op.event?.args);
  }
  return args;
}

const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe("a pool worker's encoded args", () => {
  it('keep no ArrayBuffer a call: reading and keeping 2,000 args of ~1 KB adds under 256 KB to arrayBuffers', () => {
    const all = Array.from({ length: 2000 }, (_, i) => ({ command: `echo ${i} ${'x'.repeat(1000)}`, n: i }));
    const batch = packed(all);
    const before = process.memoryUsage().arrayBuffers;
    const kept = readArgs(batch);
    const grew = process.memoryUsage().arrayBuffers - before;
    expect(kept.every((a) => EncodedArgs.is(a))).toBe(true);
    expect(grew).toBeLessThan(256 * 1024);
    expect((kept[1999] as EncodedArgs).member('command')).toBe(`echo 1999 ${'x'.repeat(1000)}`);
  });

  it('hold what was packed after the batch buffer is overwritten and gone: value, members and the bytes the record writer copies', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.dictionary(fc.constantFrom('command', 'path', 'é', 'x'), json), json), { minLength: 1, maxLength: 8 }), (all) => {
        const batch = packed(all);
        const args = readArgs(batch);
        const encodings = args.map((a) => (EncodedArgs.is(a) ? a.bytes : null));
        new Uint8Array(batch.buffer).fill(0xff);
        structuredClone(batch.buffer, { transfer: [batch.buffer] });
        for (const [i, a] of args.entries()) {
          if (!EncodedArgs.is(a)) continue;
          expect(a.bytes).toEqual(encodings[i]);
          const target = new Uint8Array(a.length + 3);
          a.copyInto(target, 3);
          expect(target.subarray(3)).toEqual(encodings[i]);
          const v = all[i] as Record<string, unknown>;
          if (typeof v === 'object' && v !== null && !Array.isArray(v)) for (const k of ['command', 'path', 'x']) expect(a.member(k)).toEqual(v[k]);
          expect(a.value()).toEqual(all[i]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
