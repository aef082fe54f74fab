/**
 * A session's rings in WebAssembly memory are each only as long as what reads them (src/wasm/slot-layout.ts),
 * while the history's `oldest` is the longest ring's: a call older than a shorter ring keeps has had its
 * word there overwritten by a later call's. The host's view of the rings (src/wasm/wasm-history.ts) never
 * takes such a word for the call's: two calls are never the same in a ring that no longer holds one of them.
 * And a rule that reads a ring back to `oldest` finds it long enough: calibrate's recorded wall length
 * (src/live/dead-end-wall.ts's wallLength, WALL_RECORDED calls) reads tools and masked outcomes that far,
 * and gives the reference engine's length.
 */
import { describe, expect, it } from 'vitest';
import type { LoopDetectorOptions, ToolEvent } from '../src/index.js';
import { WALL_RECORDED } from '../src/calibrate/recording.js';
import { wallLength } from '../src/live/dead-end-wall.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import type { Pipeline } from '../src/session/pipeline.js';
import { ReferencePipeline } from '../src/session/reference-pipeline.js';
import { Ring, type RingId } from '../src/state/call-history.js';
import { WasmPipeline } from '../src/wasm/wasm-pipeline.js';

function both(o: LoopDetectorOptions): [Pipeline, Pipeline] {
  const r = resolveOptions(o);
  return [new ReferencePipeline(r), new WasmPipeline(r)];
}

describe('ring reach', () => {
  it('should never take an overwritten word of a ring shorter than the history for a call\'s', () => {
    // by default the error ring keeps dead end's 15 calls, the history 31
    const [ref, wasm] = both({});
    for (let i = 0; i < 40; i++) for (const p of [ref, wasm]) p.observe({ tool: 'bash', args: { command: `make t${i}` }, error: `Error: failure number ${i}` });
    const rings: RingId[] = [Ring.SIG, Ring.TOOL, Ring.OUTCOME, Ring.MASKED, Ring.ERROR];
    const h = wasm.history;
    expect(h.oldest).toBe(ref.history.oldest);
    let compared = 0;
    for (const ring of rings) {
      for (let i = h.oldest; i < h.count; i++) {
        for (let j = h.oldest; j < h.count; j++) {
          if (i === j) continue;
          compared++;
          // every call has its own command and error: no two calls hold one word, in any ring but the tool's
          expect(h.same(ring, i, j), `ring ${ring}, calls ${i} and ${j}`).toBe(ref.history.same(ring, i, j));
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
    for (const p of [ref, wasm]) p.dispose();
  });

  it('should give the reference\'s recorded wall length when the wall reaches back past dead end\'s window', () => {
    const detectors: LoopDetectorOptions['detectors'] = { exactRepeat: false, frequency: false, semantic: false, similarArgs: false, resultRepeat: false, stateRepeat: false, chanting: false, cycle: { window: 20 }, deadEnd: { window: 15 } };
    const walls = both({ detectors }).map((p) => {
      const calls: ToolEvent[] = [];
      for (let i = 0; i < 5; i++) calls.push({ tool: 'grep', args: { pattern: `p${i}` }, error: 'Error: not found' });
      for (let i = 0; i < 17; i++) calls.push({ tool: 'read', args: { path: `f${i}` }, error: 'Error: not found' });
      for (const c of calls) p.observe(c);
      p.mark();
      try {
        p.observe({ tool: 'read', args: { path: 'f99' } }, true);
        return wallLength(p.history, p.lastIndex, WALL_RECORDED);
      } finally {
        p.rollback();
        p.dispose();
      }
    });
    expect(walls[0]).toBe(17);
    expect(walls[1]).toBe(walls[0]);
  });
});
