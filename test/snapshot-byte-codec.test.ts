/** ByteWriter / ByteReader: every value comes back exactly, strings of any UTF-16 included. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotError } from '../src/errors.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';

describe('ByteWriter and ByteReader', () => {
  it('should give back every string exactly: ASCII, any Unicode, lone surrogates, a leading U+FEFF, short and long', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'é', '😀', '\ufeff', '\ud800', '\udc00', '\u0000', '\n'), fc.string({ unit: 'grapheme', maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 80 }), { maxLength: 12 }), (strings) => {
        const w = new ByteWriter(8);
        for (const s of strings) w.str(s);
        const r = new ByteReader(w.finish());
        expect(strings.map(() => r.str())).toEqual(strings);
        r.done();
      }),
      { numRuns: 500 },
    );
    const long = '\ufeff' + 'x'.repeat(5000) + 'é😀';
    const w = new ByteWriter();
    w.str(long);
    w.optStr(undefined);
    w.optStr('');
    w.f64(-0);
    const r = new ByteReader(w.finish());
    expect(r.str()).toBe(long);
    expect(r.optStr()).toBeUndefined();
    expect(r.optStr()).toBe('');
    expect(Object.is(r.f64(), -0)).toBe(true);
    r.done();
  });

  it('should refuse to read past the end, from a view into a larger buffer too', () => {
    const w = new ByteWriter();
    w.str('hello');
    const bytes = w.finish();
    const inside = new Uint8Array(bytes.length + 16);
    inside.set(bytes, 8);
    const r = new ByteReader(inside.subarray(8, 8 + bytes.length - 1));
    expect(() => r.str()).toThrow(SnapshotError);
    expect(new ByteReader(inside.subarray(8, 8 + bytes.length)).str()).toBe('hello');
  });
});
