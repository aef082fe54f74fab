/**
 * A value that reuses one object many times (`v = {a: v, b: v}` forty times over: a few hundred bytes, 2^40
 * references) costs a bound, not its references (src/fingerprint/element-budget.ts, the repeat budget): the
 * same in the TypeScript reference and the WebAssembly twin, and in every other walk of a call's args or
 * outcome (similar args' summary and masked copy, the outcome's text). Trees and values sharing a small
 * object a few times hash as they did before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveGuard, LoopDetector, LoopEngine } from '../src/index.js';
import { hashValue } from '../src/fingerprint/canonical-hash.js';
import { u64 } from '../src/fingerprint/u64.js';
import { MAX_REPEAT_NODES, MAX_WALK_ELEMENTS, TRACK_SHARED_AFTER } from '../src/fingerprint/element-budget.js';
import { OUTCOME_JSON_VALUES, errorText, resultText } from '../src/text/outcome-text.js';
import { outcomeText } from '../src/adapters/shared.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { engineSignatures } from './helpers/engine-signatures.js';
import { countedLeaf, doubling } from './helpers/shared-values.js';

function fingerprint(v: unknown): string {
  const lo = hashValue(v);
  return `${u64.hi}:${lo}`;
}

/** The same value with every shared reference copied: a tree. */
const treeOf = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

const wasmBytes = (): number => sharedCore().instance.memory.buffer.byteLength;
const MB = 1 << 20;

describe('a value reusing one object many times', () => {
  it('should read a bounded part of it in every entry point, whatever its references', { timeout: 600_000 }, async () => {
    const entries: [string, (args: unknown) => unknown][] = [
      ['LoopDetector.check (wasm)', (args) => new LoopDetector().check({ tool: 't', args })],
      ['LoopDetector.check (reference)', (args) => new LoopDetector({ engine: 'reference' }).check({ tool: 't', args })],
      ['LoopDetector.check, normalizeVolatile', (args) => new LoopDetector({ normalizeVolatile: true }).check({ tool: 't', args })],
      ['LiveGuard.propose', (args) => new LiveGuard().propose('s', { tool: 't', args })],
      ['LiveGuard.record, the result shared too', (args) => new LiveGuard().record('s', { tool: 't', args, result: args })],
      ['LoopEngine.check', (args) => new LoopEngine().check('s', { tool: 't', args })],
    ];
    for (const [name, run] of entries) {
      for (const shape of ['object', 'array'] as const) {
        // 2^40 references to the leaf: before, each walk visited every one (did not end)
        const c = countedLeaf();
        await run({ q: doubling(40, shape, c.leaf) });
        expect(c.reads(), `${name}, ${shape}`).toBeGreaterThan(0);
        expect(c.reads(), `${name}, ${shape}`).toBeLessThanOrEqual(16 * MAX_REPEAT_NODES);
      }
    }
  });

  it('should not grow WebAssembly memory with the references', () => {
    new LoopDetector().check({ tool: 'warm', args: { a: [1, 2, 3] } });
    const before = wasmBytes();
    for (const shape of ['object', 'array', 'map'] as const) new LiveGuard().propose('s', { tool: 't', args: { q: doubling(60, shape, { x: 'y' }) } });
    expect(wasmBytes() - before).toBeLessThanOrEqual(8 * MB);
  });

  it('should give both engines the same signature past the budget', { timeout: 600_000 }, () => {
    for (const shape of ['object', 'array', 'map'] as const) {
      for (const levels of [12, 18, 40]) {
        const s = engineSignatures({ q: doubling(levels, shape, { x: 1 }) });
        expect(s.wasm, `${shape} ${levels}`).toBe(s.reference);
      }
    }
  });

  it('should hash an object met again past the budget as a marker, so unlike the tree it stands for', { timeout: 120_000 }, () => {
    // 2^18 references to the leaf, about 2^20 nodes: more than the repeat budget
    const dag = doubling(18, 'object', { x: 1 });
    expect(fingerprint(dag)).not.toBe(fingerprint(treeOf(dag)));
    // still told apart by what is walked before the budget ends
    expect(fingerprint(dag)).not.toBe(fingerprint(doubling(18, 'object', { x: 2 })));
  });

  it('should hash trees, and values sharing objects within the budget, as their trees (as before), in both engines', { timeout: 120_000 }, () => {
    // small: under TRACK_SHARED_AFTER nodes, nothing is noted
    const small = { shared: doubling(6, 'object', { x: 1 }), list: doubling(5, 'array', 'z') };
    expect(fingerprint(small)).toBe(fingerprint(treeOf(small)));
    // large: over TRACK_SHARED_AFTER nodes, its repeats within the budget
    const leaf = { path: '/a/b', lines: [1, 2, 3] };
    const big = { rows: Array.from({ length: 2 * TRACK_SHARED_AFTER }, (_, i) => ({ i, leaf })), again: doubling(10, 'object', leaf) };
    expect(fingerprint(big)).toBe(fingerprint(treeOf(big)));
    const s = engineSignatures(big);
    expect(s.wasm).toBe(s.reference);
    expect(engineSignatures(treeOf(big)).reference).toBe(s.reference);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 6 }), (j, k) => {
        const dag = { parts: Array.from({ length: k }, () => j), pair: [j, { j }] };
        expect(fingerprint(dag)).toBe(fingerprint(treeOf(dag)));
        const sig = engineSignatures(dag);
        expect(sig.wasm).toBe(sig.reference);
      }),
      { numRuns: 60, seed: 23 },
    );
  });
});

describe("an outcome's text", () => {
  it('should read a bounded part of a sparse array result and stand it as its fingerprint', { timeout: 120_000 }, () => {
    let reads = 0;
    const a: unknown[] = [];
    a.length = 1 << 22;
    a[7] = 'x';
    const counted = new Proxy(a, {
      get(t, k, r) {
        if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
        return Reflect.get(t, k, r) as unknown;
      },
    });
    const text = resultText(counted);
    expect(text).toMatch(/^\[value [g-v]{16}\]$/);
    // JSON text given up past its bound, then the fingerprint's walk (its element budget)
    expect(reads).toBeLessThanOrEqual(OUTCOME_JSON_VALUES + MAX_WALK_ELEMENTS + 1);
    // the same through LiveGuard.record (its outcome facts and the module's record read the result's text)
    reads = 0;
    void new LiveGuard().record('s', { tool: 't', args: { a: 1 }, result: counted });
    expect(reads).toBeLessThanOrEqual(8 * (OUTCOME_JSON_VALUES + MAX_WALK_ELEMENTS + 1));
  });

  it('should stand a result reusing one object many times as its fingerprint, after a bounded read', { timeout: 120_000 }, () => {
    const c = countedLeaf();
    expect(resultText({ r: doubling(40, 'array', c.leaf) })).toMatch(/^\[value [g-v]{16}\]$/);
    expect(c.reads()).toBeLessThanOrEqual(4 * OUTCOME_JSON_VALUES + 16 * MAX_REPEAT_NODES);
  });

  it("should stand an error or an SDK tool's value reusing one object many times as its fingerprint, after a bounded read", () => {
    // the JSON text past its bounds once fell back to String(), which walks an array's elements as JSON does:
    // errorText of `[v, v]` 24 levels deep took 7.6 s for a 268 MB string (past ~27 levels, past any length)
    const reads: number[] = [];
    for (const text of [(v: unknown) => errorText(v), (v: unknown) => outcomeText(v)]) {
      const c = countedLeaf();
      expect(text({ r: doubling(40, 'array', c.leaf) })).toMatch(/^\[value [g-v]{16}\]$/);
      expect(text(doubling(40, 'array', c.leaf))).toMatch(/^\[value [g-v]{16}\]$/);
      reads.push(c.reads());
    }
    const c = countedLeaf();
    void new LiveGuard().record('s', { tool: 't', args: { a: 1 }, error: doubling(40, 'array', c.leaf) });
    reads.push(c.reads());
    for (const r of reads) expect(r).toBeLessThanOrEqual(8 * OUTCOME_JSON_VALUES + 32 * MAX_REPEAT_NODES);
    // the adapters' outcome text of a sparse array result: its fingerprint, as resultText gives it
    const a: unknown[] = [];
    a.length = 1 << 22;
    expect(outcomeText(a)).toBe(resultText(a));
  });

  it('should keep ordinary results as their JSON', () => {
    expect(resultText({ ok: true, files: ['a.ts', 'b.ts'], n: 3n })).toBe('{"ok":true,"files":["a.ts","b.ts"],"n":"3"}');
    expect(resultText(Array.from({ length: 1000 }, (_, i) => i))).toBe(JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)));
    expect(resultText('plain')).toBe('plain');
  });
});
