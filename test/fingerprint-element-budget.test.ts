/**
 * A huge array costs a bound, not its `length` (src/fingerprint/element-budget.ts): a walk of a value reads
 * at most MAX_WALK_ELEMENTS array elements, the rest of an array past them hashed as one "too many" marker
 * holding its length, the same in the TypeScript reference and the WebAssembly twin; arrays under the bound
 * hash as they did before it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector, LoopEngine, callSignature } from '../src/index.js';
import { MAX_WALK_ELEMENTS } from '../src/fingerprint/element-budget.js';
import * as A from '../src/wasm/generated/abi.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { engineSignatures } from './helpers/engine-signatures.js';

/** A sparse array of `length` holding `values` at their indices (a few bytes of memory, whatever `length`). */
function sparse(length: number, values: Record<number, unknown> = {}): unknown[] {
  const a: unknown[] = [];
  a.length = length;
  for (const [i, v] of Object.entries(values)) a[Number(i)] = v;
  return a;
}

/** A sparse array behind a Proxy that counts the elements read from it. */
function counted(length: number): { value: unknown[]; reads: () => number } {
  let reads = 0;
  const value = new Proxy(sparse(length, { 3: 'x' }), {
    get(t, k, r) {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
      return Reflect.get(t, k, r) as unknown;
    },
  });
  return { value, reads: () => reads };
}

const wasmBytes = (): number => sharedCore().instance.memory.buffer.byteLength;
const MB = 1 << 20;

describe('a huge sparse array through the public API', () => {
  it('should read at most the element budget of an array whatever its length, in every entry point', () => {
    const entries: [string, (args: unknown) => unknown][] = [
      ['LoopDetector.check', (args) => new LoopDetector().check({ tool: 't', args })],
      // masked, similar args copies the args first (detectors/snapshot-args.ts)
      ['LoopDetector.check, normalizeVolatile', (args) => new LoopDetector({ normalizeVolatile: true }).check({ tool: 't', args })],
      ['LoopDetector.propose', (args) => new LoopDetector().propose({ id: 'p', tool: 't', args })],
      ['LiveGuard.propose', (args) => new LiveGuard().propose('s', { tool: 't', args })],
      ['LiveGuard.record', (args) => new LiveGuard().record('s', { tool: 't', args, result: 'ok' })],
      ['LoopEngine.check', (args) => new LoopEngine().check('s', { tool: 't', args })],
    ];
    for (const [name, run] of entries) {
      // 4,194,304 elements: every one was read before, by each walk of the args; now the budget, by each of
      // the (here three) walks: the module's encoding, similar args' summary and its fingerprint
      const c = counted(1 << 22);
      run({ list: c.value });
      expect(c.reads(), name).toBeLessThanOrEqual(4 * MAX_WALK_ELEMENTS);
      expect(c.reads(), name).toBeGreaterThan(0);
    }
  });

  it('should take a sparse array of length 2^32-1 without growing WebAssembly memory by more than a few MB', () => {
    const guard = new LiveGuard();
    new LoopDetector().check({ tool: 'warm', args: { a: [1, 2, 3] } });
    const before = wasmBytes();
    // before: 179 s and 2,048 MiB of memory, then a fail-open
    expect(guard.propose('s', { tool: 't', args: sparse(2 ** 32 - 1, { 0: 'a', 5: 'b' }) }).action).toBe('allow');
    expect(guard.record('s', { tool: 't', args: { a: sparse(2 ** 32 - 1) }, result: 'ok' }).action).toBe('allow');
    expect(new LoopDetector().check({ tool: 't', args: [sparse(2 ** 32 - 1), sparse(2 ** 31)] })).toBeNull();
    expect(new LoopDetector({ normalizeVolatile: true }).check({ tool: 't', args: { a: sparse(2 ** 32 - 1) } })).toBeNull();
    expect(wasmBytes() - before).toBeLessThanOrEqual(8 * MB);
  }, 30_000);

  it('should hash the elements past the budget as one marker holding the length', () => {
    const at = MAX_WALK_ELEMENTS;
    // differences past the budget are not read; within it, or in the length, they are
    expect(callSignature('t', sparse(2 ** 32 - 1, { [at]: 'x' }))).toBe(callSignature('t', sparse(2 ** 32 - 1, { [at + 5]: 'y' })));
    expect(callSignature('t', sparse(2 ** 32 - 1, { [at - 1]: 'x' }))).not.toBe(callSignature('t', sparse(2 ** 32 - 1)));
    expect(callSignature('t', sparse(2 ** 32 - 2))).not.toBe(callSignature('t', sparse(2 ** 32 - 1)));
    // the budget is the walk's: a second array past what the first left is cut too
    const first = sparse(at - 10);
    expect(callSignature('t', [first, sparse(20, { 15: 'x' })])).toBe(callSignature('t', [first, sparse(20, { 16: 'x' })]));
    expect(callSignature('t', [first, sparse(20, { 5: 'x' })])).not.toBe(callSignature('t', [first, sparse(20, { 6: 'x' })]));
  });
});

describe('the element budget in both engines', () => {
  it('should be the same number in the module and the host', () => {
    expect(A.MAX_WALK_ELEMENTS).toBe(MAX_WALK_ELEMENTS);
  });

  it('should give the WebAssembly twin the reference signature of values at, over and across the budget', () => {
    const n = MAX_WALK_ELEMENTS;
    const numbers = (k: number, from = 0): number[] => Array.from({ length: k }, (_, i) => from + i);
    const values: unknown[] = [
      sparse(2 ** 32 - 1, { 0: 'a', 7: { b: [1, 2] }, [n - 1]: 'last', [n]: 'past' }),
      { a: sparse(2 ** 32 - 1), b: [sparse(100), 'x'] },
      numbers(n),
      numbers(n + 1),
      { a: numbers(n - 3), b: ['x', 'y', 'z', 'w', 'v'], c: [[1], [2]] },
      [numbers(n / 2), numbers(n / 2, 7), [], [1]],
      [sparse(n + 1, { 1: new Map([[1, sparse(9)]]) })],
      JSON.stringify({ q: numbers(n + 2) }),
      JSON.stringify(numbers(n)),
    ];
    for (const v of values) {
      const s = engineSignatures(v);
      expect(s.wasm).toBe(s.reference);
    }
    // JSON text over the budget (left to the host by the module's JSON hasher) hashes as its parsed value
    const text = JSON.stringify({ q: numbers(n + 2) });
    expect(engineSignatures(text).wasm).toBe(callSignature('t', JSON.parse(text)));
  }, 60_000);

  it('should hash arrays under the budget as before, in both engines', () => {
    // digests of signatures computed by the build before the budget (integ 4d5af9e), for the same seeded values
    const value = fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 40 }), fc.jsonValue({ maxDepth: 4 }));
    const samples = fc.sample(value, { numRuns: 300, seed: 22 });
    const ref: string[] = [];
    const wasm: string[] = [];
    for (const v of samples) {
      const s = engineSignatures(v);
      ref.push(s.reference);
      wasm.push(s.wasm);
    }
    expect(wasm).toEqual(ref);
    expect(callSignature('t', ref.join(','))).toBe(BEFORE.samples);
    const whole = Array.from({ length: MAX_WALK_ELEMENTS }, (_, i) => (i % 3 === 0 ? i : `s${i % 7}`));
    expect(engineSignatures(whole)).toEqual({ reference: BEFORE.atBudget, wasm: BEFORE.atBudget });
  }, 60_000);
});

/** Signatures from the build before the budget (see the test above). */
const BEFORE = { samples: 'dfc733a8c0e63cf2', atBudget: '7321bf8910506ec7' };
