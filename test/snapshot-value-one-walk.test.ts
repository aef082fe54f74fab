/**
 * The snapshot's value codec (src/snapshot/value-codec.ts: a call in flight's args in a LiveGuard's state,
 * the hook's state file and serve's) writes each container with its fingerprint. It hashed each container
 * on its own, so a value was walked once per level it lay at (MAX_ARGS_DEPTH, 16): now one walk notes every
 * container's fingerprint (hashValueNoting), and the bytes are the same: each fingerprint read back is the
 * one hashValue gives that container alone, on random values with shared parts, cycles, values past the
 * depth cap, Maps, bytes and restored values; a value read back is written again byte for byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashValue } from '../src/fingerprint/canonical-hash.js';
import { carriedFingerprint } from '../src/fingerprint/restored-value.js';
import { u64 } from '../src/fingerprint/u64.js';
import { ByteReader } from '../src/snapshot/byte-reader.js';
import { ByteWriter } from '../src/snapshot/byte-writer.js';
import { readValue, writeValue } from '../src/snapshot/value-codec.js';
import { MAX_ARGS_DEPTH, isPlainObject } from '../src/text/args-similarity.js';

function written(v: unknown): Uint8Array {
  const w = new ByteWriter();
  writeValue(w, v);
  return w.finish().slice();
}

function readBack(bytes: Uint8Array): unknown {
  return readValue(new ByteReader(bytes));
}

/** Every container's fingerprint read back against hashValue of the original, `depth` levels down. */
function expectFingerprints(original: unknown, restored: unknown, depth: number, path: string): void {
  if (typeof original !== 'object' || original === null) return;
  const carried = carriedFingerprint(restored as object);
  if (carried === undefined) return;
  const lo = hashValue(original);
  expect([carried[0], carried[1]], path).toEqual([lo, u64.hi]);
  if (depth >= MAX_ARGS_DEPTH) return;
  if (Array.isArray(original)) original.forEach((x, i) => expectFingerprints(x, (restored as unknown[])[i], depth + 1, `${path}[${i}]`));
  else if (isPlainObject(original)) for (const k of Object.keys(original)) expectFingerprints((original as Record<string, unknown>)[k], (restored as Record<string, unknown>)[k], depth + 1, `${path}.${k}`);
}

/** Nested `levels` deep: {a: {a: ... leaf}} with a sibling at each level. */
function chain(levels: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = { a: v, i, s: [i, 'x'] };
  return v;
}

const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), fc.boolean(), fc.constant(undefined), fc.double());
const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object'), tie('map')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'path', 'id'), tie('node'), { maxKeys: 4 }),
  map: fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie('node')), { maxLength: 3 }).map((es) => new Map(es)),
})).node;

/** A random tree given shared parts, a cycle or a chain past the depth cap, by `how`. */
function hostile(v: unknown, how: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (how === 1) return { x: v, y: [v, { z: v }] };
  if (how === 2) {
    const o: Record<string, unknown> = { v };
    o['self'] = [o];
    return o;
  }
  if (how === 3) return chain(70, v);
  if (how === 4) return [v, new Uint8Array([1, 2, 3]), 10n ** 30n, new Set([v])];
  return v;
}

describe('the value codec, one walk', () => {
  it('should write each container with the fingerprint hashValue gives it alone', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 4 }), (t, how) => {
        const v = hostile(t, how);
        const bytes = written(v);
        const back = readBack(bytes);
        expectFingerprints(v, back, 0, '$');
        // written again as it was read: the same bytes
        expect(Buffer.from(written(back)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 400, seed: 29 },
    );
    // restored parts inside a new value keep their carried fingerprints
    const restored = readBack(written({ q: [1, { r: 2 }] }));
    const mixed = { fresh: [restored, { restored }], n: 1 };
    expectFingerprints(mixed, readBack(written(mixed)), 0, '$');
  });

  // against integ (bd04d94): the leaf array is read once per level it lies under (17 x 2,000 reads and more):
  // 1 of 1 fails
  it('should walk a value once, not once per level', () => {
    let reads = 0;
    const n = 2000;
    const list = new Proxy(
      Array.from({ length: n }, (_, i) => i),
      {
        get(t, k, r) {
          if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
          return Reflect.get(t, k, r) as unknown;
        },
      },
    );
    const v = chain(MAX_ARGS_DEPTH - 1, list);
    const bytes = written(v);
    // the walk, and the writer's own copy of each element
    expect(reads).toBeLessThanOrEqual(2 * n);
    expectFingerprints(v, readBack(bytes), 0, '$');
  });
});
