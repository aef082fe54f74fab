/**
 * An object of very many keys costs a bound, not its keys (src/fingerprint/member-budget.ts): a walk hashes
 * at most MAX_WALK_MEMBERS of one object's own keys; meeting one more, the object is one "too many members"
 * marker holding its key count, the same in the TypeScript reference and the WebAssembly twin (the module
 * hashes the host's encoding: `T_WIDE`); objects within the cap hash as they did. Before, every walk read
 * every member: `LoopDetector.check` of 2^20 keys took 5-6.7 s, `LiveGuard.record` 10.6-11.2 s.
 */
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector, callSignature } from '../src/index.js';
import { DEFAULT_WALK, hashValue } from '../src/fingerprint/canonical-hash.js';
import { MAX_WALK_MEMBERS } from '../src/fingerprint/member-budget.js';
import { u64 } from '../src/fingerprint/u64.js';
import { ValueEncoder } from '../src/wasm/encode-value.js';
import { sharedInstance } from '../src/wasm/wasm-module.js';
import { engineSignatures } from './helpers/engine-signatures.js';

/** An object of `n` keys `${prefix}${i}`, each holding `value(i)`. */
function wide(n: number, prefix = 'k', value: (i: number) => unknown = (i) => i): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[`${prefix}${i}`] = value(i);
  return o;
}

/** `o` behind a Proxy that counts the members read from it (`reads.n`). */
function counted(o: Record<string, unknown>, reads: { n: number }): Record<string, unknown> {
  return new Proxy(o, {
    get(t, k, r) {
      if (typeof k === 'string' && k !== 'toJSON') reads.n++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
}

/** The reference fingerprint of `v` as "hi:lo", with `ignore` fields. */
function reference(v: unknown, ignore: ReadonlySet<string> | null = null): string {
  const lo = hashValue(v, ignore === null ? DEFAULT_WALK : { ignoreKeys: ignore, maxDepth: 64 });
  return `${u64.hi}:${lo}`;
}

/** The module's fingerprint of the host's encoding of `v` (assembly/tree.ts), as "hi:lo". */
function module(v: unknown, ignore: ReadonlySet<string> | null = null): string {
  const inst = sharedInstance();
  const size = 32 << 20;
  const at = inst.exports.reserveBytes(size);
  const { u8, dv } = inst.views();
  const enc = new ValueEncoder();
  enc.reset(u8, dv, at, at + size);
  enc.value(v, ignore, 64);
  const h = BigInt.asUintN(64, inst.exports.encodedFp(at));
  return `${Number(h >> 32n)}:${Number(h & 0xffffffffn)}`;
}

describe('an object past the member cap', () => {
  it('should hash alike in the reference and the module, at, under and past the cap', () => {
    const big = 'z'.repeat(1 << 20);
    const values: unknown[] = [
      wide(MAX_WALK_MEMBERS - 1),
      wide(MAX_WALK_MEMBERS),
      wide(MAX_WALK_MEMBERS + 1),
      wide(3 * MAX_WALK_MEMBERS, 'key-', (i) => ({ i, s: 'v' })),
      // siblings after a wide object: what its walked members took of the budgets stays taken
      [wide(MAX_WALK_MEMBERS + 5, 'u', () => big.slice(0, 300)), big, { after: big }, wide(MAX_WALK_MEMBERS + 1)],
      { a: wide(MAX_WALK_MEMBERS + 2, 'k', (i) => (i % 3 === 0 ? undefined : i)), b: [wide(2), 'x'] },
      Object.assign(Object.create(null) as object, wide(MAX_WALK_MEMBERS + 1)),
    ];
    for (const v of values) expect(module(v)).toBe(reference(v));
    const ignore = new Set(['k7', 'k9']);
    expect(module(wide(MAX_WALK_MEMBERS + 1), ignore)).toBe(reference(wide(MAX_WALK_MEMBERS + 1), ignore));
    // through both engines' call signatures
    for (const v of [wide(MAX_WALK_MEMBERS + 1), { q: wide(2 * MAX_WALK_MEMBERS) }]) {
      const s = engineSignatures(v);
      expect(s.wasm).toBe(s.reference);
    }
    // JSON text of a wide object (left to the host by the module's JSON hasher) hashes as its parsed value
    const text = JSON.stringify({ q: wide(MAX_WALK_MEMBERS + 3) });
    expect(engineSignatures(text).wasm).toBe(callSignature('t', JSON.parse(text)));
  }, 60_000);

  // against integ (bd04d94): the two wide objects below hash apart (every member hashed): 1 of 1 fails
  it('should be one marker holding its key count past the cap, and hash as before within it', () => {
    const n = MAX_WALK_MEMBERS + 1;
    // past the cap: the keys and values do not matter, the count does
    expect(reference(wide(n, 'a'))).toBe(reference(wide(n, 'b', (i) => `v${i}`)));
    expect(reference(wide(n))).not.toBe(reference(wide(n + 1)));
    // not an empty object, nor one of the same count within the cap
    expect(reference(wide(n))).not.toBe(reference({}));
    // within it every member counts
    expect(reference(wide(MAX_WALK_MEMBERS, 'a'))).not.toBe(reference(wide(MAX_WALK_MEMBERS, 'b')));
    expect(reference(wide(MAX_WALK_MEMBERS))).not.toBe(reference({ ...wide(MAX_WALK_MEMBERS), k0: -1 }));
  });

  // against integ (bd04d94): every member is read by every walk (4 x 65,536 and more): 3 of 3 fail
  it('should read at most the cap of members in each walk, in the reference and through the public API', async () => {
    const n = 4 * MAX_WALK_MEMBERS;
    // integ reads all n in each walk: past these bounds
    let reads = { n: 0 };
    hashValue(counted(wide(n), reads));
    expect(reads.n).toBe(MAX_WALK_MEMBERS);
    reads = { n: 0 };
    new LoopDetector().check({ tool: 't', args: { q: counted(wide(n), reads) } });
    // the module's encoding (begun again each time its area has grown: up to three times the cap here), then
    // similar args' summary (its fingerprint, the mirror having given up)
    expect(reads.n).toBeGreaterThan(0);
    expect(reads.n).toBeLessThanOrEqual(4 * MAX_WALK_MEMBERS);
    reads = { n: 0 };
    await new LiveGuard().record('s', { tool: 't', args: { q: counted(wide(n), reads) }, result: 'ok' });
    expect(reads.n).toBeGreaterThan(0);
    expect(reads.n).toBeLessThanOrEqual(4 * MAX_WALK_MEMBERS);
  }, 60_000);
});
