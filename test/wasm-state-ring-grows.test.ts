/**
 * State repeat's ring of keys lives in a block beside the session's slot, as long as the calls seen
 * (assembly/state-ring.ts): a session of 100 calls keeps 128 keys, not the window's 500. Verdicts stay those
 * of the TypeScript reference across every growth and past the window's wrap; a freed or reset session
 * gives its block back; a rollback across a growth and a snapshot taken mid-growth put back exactly the
 * session's state, and the snapshot holds the ring in its saved form (the window's keys), as it always did.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import type { ToolEvent } from '../src/index.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import * as A from '../src/wasm/generated/abi.js';
import { slotLayout } from '../src/wasm/slot-layout.js';
import { savedSlot, stateCapacity } from '../src/wasm/state-block.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

/** Only state repeat (and exact repeat, which every session runs), at its default window of 500. */
const ONLY_STATE = { detectors: { frequency: false, cycle: false, semantic: false, similarArgs: false, resultRepeat: false, deadEnd: false, chanting: false } } as const;

/** Call `i` of a stream whose states come back at several distances (7, 37, 180 and 450 calls). */
function event(i: number): ToolEvent {
  const period = [7, 37, 180, 450][i % 4] as number;
  const k = Math.floor(i / 4) % period;
  return { tool: 'read', args: { path: `p${period}-${k}.txt`, n: i }, description: `state ${period}/${k}`, result: `r${period}-${k}` };
}

const slotOf = (p: WasmPipeline): number => (p as unknown as { slot: number }).slot;

/** The [block, capacity] words of a pipeline's state ring. */
function ringWords(p: WasmPipeline): [number, number] {
  const layout = slotLayout(resolveOptions(ONLY_STATE));
  const u32 = sharedCore().instance.views().u32;
  const at = (slotOf(p) + layout.stateOff) >>> 2;
  return [u32[at] as number, u32[at + 1] as number];
}

const memTop = (): number => sharedCore().instance.views().u32[(A.HEADER + A.H_MEMTOP) >>> 2] as number;

describe("state repeat's ring sized to the calls seen", () => {
  it('should keep a slot with no room for the window, and a block that grows with the calls', () => {
    const layout = slotLayout(resolveOptions(ONLY_STATE));
    expect(layout.stateWindow).toBe(500);
    // the slot holds two words for the ring, not 500 keys
    expect(layout.slotSize).toBeLessThan(500 * 4);
    expect(layout.savedSize - layout.slotSize).toBeGreaterThanOrEqual(500 * 4 - 8 - 15);
    const p = new WasmPipeline(resolveOptions(ONLY_STATE));
    try {
      expect(ringWords(p)).toEqual([0, 0]);
      for (let i = 0; i < 700; i++) {
        p.observe(event(i));
        const n = i + 1;
        expect(ringWords(p)[1], `after ${n} calls`).toBe(stateCapacity(n % 500, n, 500));
      }
      expect(stateCapacity(100, 100, 500)).toBe(128);
    } finally {
      p.dispose();
    }
  });

  it('should give the reference engine’s verdicts call by call, past every growth and the wrap', () => {
    const ref = new LoopDetector({ ...ONLY_STATE, engine: 'reference' });
    const wasm = new LoopDetector({ ...ONLY_STATE, engine: 'wasm' });
    const all = new LoopDetector({ engine: 'wasm' });
    const allRef = new LoopDetector({ engine: 'reference' });
    let states = 0;
    try {
      for (let i = 0; i < 1_300; i++) {
        const e = event(i);
        const v = ref.check(e);
        if (v?.signals.some((s) => s.kind === 'state_repeat') === true) states++;
        expect(JSON.stringify(wasm.check(e)), `call ${i}`).toBe(JSON.stringify(v));
        expect(JSON.stringify(all.check(e)), `call ${i}, every detector`).toBe(JSON.stringify(allRef.check(e)));
      }
    } finally {
      wasm.dispose();
      all.dispose();
    }
    expect(states).toBeGreaterThan(10);
  });

  it('should give its block back when a session ends or is reset', () => {
    const run = (): void => {
      const d = new LoopDetector({ ...ONLY_STATE, engine: 'wasm' });
      for (let i = 0; i < 300; i++) d.check(event(i));
      d.reset();
      for (let i = 0; i < 300; i++) d.check(event(i));
      d.dispose();
    };
    run();
    const top = memTop();
    for (let k = 0; k < 40; k++) run();
    // 40 sessions of 2 x 300 calls each made and freed blocks of 64 to 2,048 bytes: none kept
    expect(memTop()).toBe(top);
  });

  it('should put back the ring exactly on a rollback across a growth', () => {
    const o = resolveOptions(ONLY_STATE);
    const layout = slotLayout(o);
    const p = new WasmPipeline(o);
    const plain = new WasmPipeline(o);
    try {
      for (let i = 0; i < 64; i++) {
        p.observe(event(i));
        plain.observe(event(i));
      }
      // 64 calls fill a block of 64 keys: the proposed call grows it to 128
      expect(ringWords(p)[1]).toBe(64);
      const before = [...savedSlot(sharedCore(), slotOf(p), layout)];
      p.mark();
      p.observe({ tool: 'edit', args: { path: 'x.ts' }, result: 'ok' }, true);
      expect(ringWords(p)[1]).toBe(128);
      p.rollback();
      expect(ringWords(p)[1]).toBe(64);
      expect([...savedSlot(sharedCore(), slotOf(p), layout)]).toEqual(before);
      // proposals at the growth point, each rolled back, take no memory for good
      const top = memTop();
      for (let k = 0; k < 50; k++) {
        p.mark();
        p.observe({ tool: 'edit', args: { path: `x${k}.ts` }, result: 'ok' }, true);
        p.rollback();
      }
      expect(memTop()).toBe(top);
      expect([...savedSlot(sharedCore(), slotOf(p), layout)]).toEqual(before);
      for (let i = 64; i < 600; i++) expect(JSON.stringify(p.observe(event(i)))).toBe(JSON.stringify(plain.observe(event(i))));
    } finally {
      p.dispose();
      plain.dispose();
    }
  });

  it('should restore a snapshot taken mid-growth and go on as the session that ran on', () => {
    for (const at of [0, 5, 16, 17, 100, 499, 500, 650]) {
      const ran = new LoopDetector({ ...ONLY_STATE, engine: 'wasm', sessionId: 's' });
      for (let i = 0; i < at; i++) ran.check(event(i));
      const bytes = ran.snapshot();
      const restored = new LoopDetector({ ...ONLY_STATE, engine: 'wasm', sessionId: 's' });
      restored.restore(bytes);
      for (let i = at; i < at + 520; i++) expect(JSON.stringify(restored.check(event(i))), `snapshot after ${at}, call ${i}`).toBe(JSON.stringify(ran.check(event(i))));
      expect(restored.snapshot()).toEqual(ran.snapshot());
      ran.dispose();
      restored.dispose();
    }
  });
});
