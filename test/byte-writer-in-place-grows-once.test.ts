/**
 * hostile38: a pool's calling thread encodes each call's args into a ByteWriter (ArgsEncoder through
 * `ByteWriter.inPlace`), which doubled its buffer and began the args again each time they did not fit: args
 * of 1 MiB in a writer of 1 KiB were walked 12 times, their objects listed as often. The encoder now counts
 * what passes the buffer's end without writing it (encode-value.ts `counting`, as hostile35 did for the
 * module's records), and the writer grows once to the size counted: two walks at most, the bytes those a
 * writer large enough from the start gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter, type InPlaceFiller } from '../src/snapshot/byte-writer.js';
import { ArgsEncoder } from '../src/wasm/args-encoder.js';
import { callsDuring } from './helpers/method-calls.js';
import { runs } from './helpers/streams.js';

/** Counts ArgsEncoder#fill calls (each one walk of the args) while `f` runs. */
const fillsDuring = (f: () => void): number => callsDuring(ArgsEncoder.prototype, 'fill', f);

/** The bytes `args` encode to in a writer of `capacity` bytes, after a few bytes already written. */
function encoded(args: unknown, capacity: number): Uint8Array | null {
  const w = new ByteWriter(capacity);
  w.u32(0xabcdef);
  const ok = new ArgsEncoder(7, 64, () => true).write(w, 't', args);
  return ok ? w.finish() : null;
}

describe('ByteWriter.inPlace with args larger than its buffer', () => {
  it('should walk the args twice at most, listing their objects once more than when they fit', () => {
    const o: Record<string, number> = {};
    for (let i = 0; i < 100; i++) o['k' + i] = i;
    let listings = 0;
    const listed = new Proxy(o, {
      ownKeys(t) {
        listings++;
        return Reflect.ownKeys(t);
      },
    });
    const args = { a: listed, b: 'x'.repeat(1 << 20) };
    let bytes: Uint8Array | null = null;
    // integ: 12 fills (the buffer doubled from 1 KiB to 2 MiB, the args begun again each time)
    expect(fillsDuring(() => (bytes = encoded(args, 1024)))).toBeLessThanOrEqual(2);
    expect(listings).toBeLessThanOrEqual(2);
    listings = 0;
    let large: Uint8Array | null = null;
    expect(fillsDuring(() => (large = encoded(args, 4 << 20)))).toBe(1);
    expect(bytes).not.toBeNull();
    expect(Buffer.compare(large as unknown as Uint8Array, bytes as unknown as Uint8Array)).toBe(0);
    expect(listings).toBe(1);
  });

  it('should give the bytes a writer large enough from the start gives, for any JSON data and buffer size', () => {
    const data = fc.jsonValue({ maxDepth: 4 }).chain((v) => fc.tuple(fc.constant({ v, s: 'é😀x'.repeat(200) }), fc.integer({ min: 16, max: 4096 })));
    fc.assert(
      fc.property(data, ([args, capacity]) => {
        let small: Uint8Array | null = null;
        const fills = fillsDuring(() => (small = encoded(args, capacity)));
        expect(fills).toBeLessThanOrEqual(2);
        expect(small).toEqual(encoded(args, 1 << 20));
      }),
      { numRuns: runs(300), seed: 38 },
    );
  });

  it('should grow again for a filler whose bytes grew since it was counted, writing nothing past the end', () => {
    const w = new ByteWriter(64);
    const sizes = [100, 300, 300];
    const ends: number[] = [];
    const filler: InPlaceFiller = {
      fill(u8, _dv, start, end) {
        ends.push(end);
        const n = sizes.shift() as number;
        if (start + n <= end) u8.fill(1, start, start + n);
        return n;
      },
    };
    w.inPlace(filler);
    expect(w.length).toBe(300);
    expect(ends.length).toBe(3);
    expect(ends[1]).toBeGreaterThanOrEqual(100);
    expect(ends[2]).toBeGreaterThanOrEqual(300);
    expect(w.finish()).toEqual(new Uint8Array(300).fill(1));
  });
});
