/**
 * Args encoded in a pool's calling thread: the encoding says JSON data exactly (decoding gives the value
 * back), and anything else is noticed, so it goes to the worker the old way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValueEncoder } from '../src/wasm/encode-value.js';
import { EncodedArgs, decodeJsonData } from '../src/wasm/encoded-args.js';

function encode(v: unknown, ignore: ReadonlySet<string> | null = null, maxDepth = 64): { bytes: Uint8Array; lossy: boolean } {
  const u8 = new Uint8Array(1 << 20);
  const enc = new ValueEncoder();
  enc.trackLoss = true;
  enc.reset(u8, new DataView(u8.buffer), 0, u8.length);
  enc.value(v, ignore, maxDepth);
  return { bytes: u8.slice(0, enc.position), lossy: enc.lossy };
}

const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n', '"', '\u0000', '\ufeff'), maxLength: 40 });
const json = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(fc.oneof(text, fc.constant('__proto__')), tie('v'), { maxKeys: 5, noNullPrototype: true })),
})).v;

describe('encoded args', () => {
  it('should decode to the same JSON data, key order, -0 and NaN included', () => {
    fc.assert(
      fc.property(json, (v) => {
        const { bytes, lossy } = encode(v);
        expect(lossy).toBe(false);
        const back = decodeJsonData(bytes);
        expect(back).toStrictEqual(v);
        if (typeof v === 'object' && v !== null) expect(Object.keys(back as object)).toEqual(Object.keys(v));
        expect(new EncodedArgs(bytes).value()).toStrictEqual(v);
      }),
      { numRuns: 500 },
    );
    expect(Object.is((decodeJsonData(encode({ z: -0 }).bytes) as { z: number }).z, -0)).toBe(true);
  });

  it('should notice every value whose encoding does not say it exactly', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10; i++) deep = [deep];
    class Point {
      constructor(readonly x: number) {}
    }
    const lossy: [string, unknown][] = [
      ['Date (toJSON)', { d: new Date(0) }],
      ['BigInt', { n: 10n }],
      ['Map', new Map([['k', 1]])],
      ['Set', { s: new Set([1]) }],
      ['bytes', { b: new Uint8Array([1]) }],
      ['cycle', cyclic],
      ['undefined member', { a: undefined, b: 1 }],
      ['function member', { f: () => 1 }],
      ['undefined element', [1, undefined]],
      ['hole', [1, , 3]],
      ['class instance', { p: new Point(1) }],
      ['lone surrogate', { s: 'a\ud800b' }],
      ['lone surrogate key', { ['k\udc00']: 1 }],
      ['null prototype (conservatively: it goes the old way)', Object.create(null) as object],
      ['throwing getter', { get boom(): never { throw new Error('no'); } }],
    ];
    for (const [what, v] of lossy) expect(encode(v).lossy, what).toBe(true);
    expect(encode(deep, null, 5).lossy, 'depth cap').toBe(true);
    expect(encode({ id: 1, q: 'x' }, new Set(['id'])).lossy, 'ignored field').toBe(true);
    expect(encode({ id: 1, q: 'x' }, new Set(['other'])).lossy).toBe(false);
  });

  it('should refuse bytes that are not one JSON value', () => {
    const { bytes } = encode({ a: [1, 'x'] });
    expect(() => decodeJsonData(bytes.subarray(0, bytes.length - 1))).toThrow(RangeError);
    expect(() => decodeJsonData(encode(new Map()).bytes)).toThrow(/not JSON data/);
  });
});
