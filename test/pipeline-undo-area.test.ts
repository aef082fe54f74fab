/**
 * mark() and rollback() of WebAssembly pipelines share one undo area per thread: a session marking while
 * another holds a mark gets an area of its own, so marks held at once, rolled back in any order, each put
 * back exactly their own slot.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options/resolve-options.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { savedSlot } from '../src/wasm/state-block.js';
import type { ToolEvent } from '../src/index.js';

const o = resolveOptions({});

/** A pipeline that has recorded `n` calls of its own. */
function pipelineWith(name: string, n: number): WasmPipeline {
  const p = new WasmPipeline(o);
  for (let i = 0; i < n; i++) p.observe({ tool: 'read', args: { path: `${name}-${i % 3}.txt` }, result: `line ${i % 2}` });
  return p;
}

/**
 * The slot's bytes as a snapshot keeps them: its saved form, with the words that tie it to memory zeroed and
 * each semantic sketch's hashes in place (the live slot holds their blocks' addresses, which a rollback
 * may change: assembly/sketch-blocks.ts).
 */
function slotBytes(p: WasmPipeline): number[] {
  const core = sharedCore();
  const slot = (p as unknown as { slot: number }).slot;
  const config = (p as unknown as { config: number }).config;
  return [...savedSlot(core, slot, core.layout(config))];
}

const proposal = (k: number): ToolEvent => ({ tool: 'edit', args: { path: `x${k}.ts`, text: 'a'.repeat(k) } });

describe('the undo area of mark() and rollback()', () => {
  for (const order of ['last marked first', 'first marked first'] as const) {
    it(`should put back each slot exactly with three marks held at once (${order})`, () => {
      const ps = [pipelineWith('a', 7), pipelineWith('b', 12), pipelineWith('c', 3)];
      const before = ps.map(slotBytes);
      ps.forEach((p, k) => {
        p.mark();
        p.observe(proposal(k), true);
        expect(p.holdsMark).toBe(true);
      });
      // each slot changed under its mark
      ps.forEach((p, k) => expect(slotBytes(p)).not.toEqual(before[k]));
      const rollbackOrder = order === 'last marked first' ? [2, 1, 0] : [0, 1, 2];
      for (const k of rollbackOrder) (ps[k] as WasmPipeline).rollback();
      ps.forEach((p, k) => {
        expect(p.holdsMark).toBe(false);
        expect(slotBytes(p)).toEqual(before[k]);
      });
      for (const p of ps) p.dispose();
    });
  }

  it('should give the same signals after marks rolled back as a session never marked', () => {
    const marked = pipelineWith('m', 5);
    const other = pipelineWith('o', 5);
    const plain = pipelineWith('m', 5);
    const otherPlain = pipelineWith('o', 5);
    for (let i = 0; i < 30; i++) {
      const e: ToolEvent = { tool: 'read', args: { path: `m-${i % 2}.txt` }, result: 'same' };
      // another session's mark is held across this one's (the case that needs an area of its own)
      other.mark();
      other.observe(proposal(i), true);
      marked.mark();
      marked.observe(e, true);
      marked.rollback();
      other.rollback();
      expect(JSON.stringify(marked.observe(e))).toBe(JSON.stringify(plain.observe(e)));
      const f: ToolEvent = { tool: 'read', args: { path: `o-${i % 3}.txt` }, error: 'not found' };
      expect(JSON.stringify(other.observe(f))).toBe(JSON.stringify(otherPlain.observe(f)));
    }
    for (const p of [marked, other, plain, otherPlain]) p.dispose();
  });

  it('should not keep a disposed pipeline holding the area', () => {
    const a = pipelineWith('a', 2);
    a.mark();
    a.dispose();
    expect(a.holdsMark).toBe(false);
    const b = pipelineWith('b', 2);
    const before = slotBytes(b);
    b.mark();
    b.observe(proposal(1), true);
    b.rollback();
    expect(slotBytes(b)).toEqual(before);
    b.dispose();
  });
});
