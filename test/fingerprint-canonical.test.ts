import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callSignature } from '../src/index.js';

/** Arbitrary JSON values (what agents send as args). */
const json = fc.jsonValue({ maxDepth: 4 });

/** Rebuilds a value with every object's keys in a shuffled order. */
function shuffleKeys(v: unknown, rand: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rand));
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
    }
    const out: Record<string, unknown> = {};
    // defineProperty: a "__proto__" key must stay an own property, as JSON.parse makes it
    for (const [k, x] of entries) Object.defineProperty(out, k, { value: shuffleKeys(x, rand), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

describe('canonical call signatures', () => {
  it('should not depend on key order', () => {
    fc.assert(
      fc.property(json, fc.integer(), (args, seed) => {
        let s = seed;
        const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
        expect(callSignature('tool', shuffleKeys(args, rand))).toBe(callSignature('tool', args));
      }),
      { numRuns: 300 },
    );
  });

  it('should give an object and its JSON text the same signature (OpenAI string arguments)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), (args) => {
        expect(callSignature('t', JSON.stringify(args))).toBe(callSignature('t', args));
        expect(callSignature('t', JSON.stringify(args, null, 2))).toBe(callSignature('t', args));
      }),
      { numRuns: 300 },
    );
  });

  it('should treat 1 and 1.0 (and 1e0, 10e-1) as the same number in JSON text', () => {
    const a = callSignature('t', '{"n": 1}');
    for (const form of ['{"n": 1.0}', '{"n": 1e0}', '{"n": 10e-1}', '{"n":1.000}']) expect(callSignature('t', form)).toBe(a);
    expect(callSignature('t', { n: 1 })).toBe(a);
    expect(callSignature('t', { n: 2 })).not.toBe(a);
  });

  it('should fold -0 into 0 and every NaN into one value', () => {
    expect(callSignature('t', { n: -0 })).toBe(callSignature('t', { n: 0 }));
    expect(callSignature('t', { n: NaN })).toBe(callSignature('t', { n: Number('x') }));
    expect(callSignature('t', { n: Infinity })).not.toBe(callSignature('t', { n: -Infinity }));
  });

  it('should tell apart values of different types that print alike', () => {
    const sigs = [{ v: 1 }, { v: '1' }, { v: true }, { v: 'true' }, { v: null }, { v: 'null' }, { v: [] }, { v: {} }, { v: [1] }, { v: { 0: 1 } }].map((a) => callSignature('t', a));
    expect(new Set(sigs).size).toBe(sigs.length);
  });

  it('should separate the tool name from the args', () => {
    expect(callSignature('read', { p: 'x' })).not.toBe(callSignature('write', { p: 'x' }));
    expect(callSignature('ab', 'c')).not.toBe(callSignature('a', 'bc'));
  });

  it('should keep array order significant and object member order not', () => {
    expect(callSignature('t', [1, 2])).not.toBe(callSignature('t', [2, 1]));
    expect(callSignature('t', { a: 1, b: 2 })).toBe(callSignature('t', { b: 2, a: 1 }));
    expect(callSignature('t', { a: 1, b: 1 })).not.toBe(callSignature('t', { a: 1 }));
  });

  it('should hash BigInt as the number it equals, and big ones deterministically', () => {
    expect(callSignature('t', { n: 10n })).toBe(callSignature('t', { n: 10 }));
    const big = 2n ** 70n + 1n;
    expect(callSignature('t', { n: big })).toBe(callSignature('t', { n: 2n ** 70n + 1n }));
    expect(callSignature('t', { n: big })).not.toBe(callSignature('t', { n: big + 1n }));
    expect(callSignature('t', { n: big })).not.toBe(callSignature('t', { n: big.toString() }));
  });

  it('should follow JSON for undefined, functions and symbols, and Date via toJSON', () => {
    expect(callSignature('t', { a: 1, b: undefined, c: () => 1, d: Symbol('x') })).toBe(callSignature('t', { a: 1 }));
    expect(callSignature('t', [undefined, () => 1])).toBe(callSignature('t', [null, null]));
    const d = new Date('2024-01-02T03:04:05.000Z');
    expect(callSignature('t', { at: d })).toBe(callSignature('t', { at: '2024-01-02T03:04:05.000Z' }));
    expect(callSignature('t', { at: new Date(NaN) })).toBe(callSignature('t', { at: null }));
  });

  it('should hash Map and Set independently of insertion order', () => {
    const m1 = new Map<unknown, unknown>([['a', 1], [2, 'b']]);
    const m2 = new Map<unknown, unknown>([[2, 'b'], ['a', 1]]);
    expect(callSignature('t', { m: m1 })).toBe(callSignature('t', { m: m2 }));
    expect(callSignature('t', { s: new Set([1, 2, 3]) })).toBe(callSignature('t', { s: new Set([3, 1, 2]) }));
    expect(callSignature('t', { s: new Set([1, 2]) })).not.toBe(callSignature('t', { s: new Set([1, 3]) }));
  });

  it('should hash cyclic references without throwing, the same way every time', () => {
    const make = () => {
      const o: Record<string, unknown> = { name: 'x' };
      o.self = o;
      o.list = [o, { back: o }];
      return o;
    };
    const s = callSignature('t', make());
    expect(s).toMatch(/^[0-9a-f]{16}$/);
    expect(callSignature('t', make())).toBe(s);
    expect(callSignature('t', { name: 'x' })).not.toBe(s);
  });

  it('should cap nesting depth instead of recursing without bound', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => callSignature('t', deep)).not.toThrow();
    let deepText = '"leaf"';
    for (let i = 0; i < 5000; i++) deepText = `[${deepText}]`;
    expect(callSignature('t', deepText)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('should survive getters and proxies that throw', () => {
    const evil = { get boom(): never { throw new Error('no'); } };
    const proxy = new Proxy({}, { ownKeys() { throw new Error('no'); } });
    expect(() => callSignature('t', evil)).not.toThrow();
    expect(() => callSignature('t', { p: proxy })).not.toThrow();
    expect(callSignature('t', evil)).toBe(callSignature('t', evil));
  });

  it('should hash typed arrays by their bytes', () => {
    expect(callSignature('t', { b: new Uint8Array([1, 2]) })).toBe(callSignature('t', { b: new Uint8Array([1, 2]) }));
    expect(callSignature('t', { b: new Uint8Array([1, 2]) })).not.toBe(callSignature('t', { b: new Uint8Array([2, 1]) }));
  });

  it('should treat lone surrogates as U+FFFD, like the UTF-8 encoder', () => {
    expect(callSignature('t', { s: 'a\ud800b' })).toBe(callSignature('t', { s: 'a\ufffdb' }));
    expect(callSignature('t', { s: '😀' })).not.toBe(callSignature('t', { s: '😁' }));
  });

  it('should keep a plain string that is not JSON as a string', () => {
    expect(callSignature('bash', 'ls -la')).toBe(callSignature('bash', 'ls -la'));
    expect(callSignature('bash', '{not json')).not.toBe(callSignature('bash', '{not json!'));
    expect(callSignature('bash', '"quoted"')).not.toBe(callSignature('bash', 'quoted'));
  });

  it('should hash a "__proto__" member (as JSON.parse makes it) like any other key', () => {
    const a = JSON.parse('{"__proto__": "", "b": 1}') as unknown;
    expect(callSignature('t', JSON.parse('{"b": 1, "__proto__": ""}'))).toBe(callSignature('t', a));
    expect(callSignature('t', '{"__proto__": "", "b": 1}')).toBe(callSignature('t', a));
    expect(callSignature('t', { b: 1 })).not.toBe(callSignature('t', a));
  });

  it('should ignore the listed fields at every depth', () => {
    const opts = { ignoreFields: ['request_id', 'ts'] };
    expect(callSignature('t', { q: 'x', request_id: 'a1', meta: { ts: 1 } }, opts)).toBe(callSignature('t', { q: 'x', request_id: 'b2', meta: { ts: 2 } }, opts));
    expect(callSignature('t', { q: 'x', request_id: 'a1' })).not.toBe(callSignature('t', { q: 'x', request_id: 'b2' }));
  });
});
