/**
 * Fault injection, WebAssembly memory full while state repeat's ring grows: the ring's keys live in a block
 * beside the slot that doubles as calls come (assembly/state-ring.ts), so a session already live can need
 * memory on a later call. When the thread's memory is full, that call evicts the engine's least recently
 * used session and goes on, as a new session's slot does (the freed slot is split for the block); with no
 * other session to evict it fails alone with a CapacityError, unrecorded. Verdicts stay those of the
 * TypeScript reference fed the same calls.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB; 20 MiB until sessions kept their semantic sketches in blocks of their length and took ~1 KB after one call), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { CapacityError, LoopDetector, LoopEngine } from '../../src/index.js';
import type { LoopDetectorOptions, SessionEvent, ToolEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';

limitMemoryForTesting(160);

/** Call `i` of a session: states and results that come back every 7 calls, so detectors fire. */
const call = (i: number): ToolEvent => ({ tool: 'read', args: { p: i % 7 }, description: `at ${i % 7}`, result: `r${i % 7}` });

/** Fills the thread's memory with new one-call sessions of `e` until the engine evicts one to start another. */
function fill(e: LoopEngine, prefix: string): void {
  for (let from = 0; e.stats().evicted === 0; from += 50) {
    expect(from, 'the memory never filled').toBeLessThan(20_000);
    const out = e.checkBatch(Array.from({ length: 50 }, (_, i): SessionEvent => ({ session: `${prefix}${from + i}`, ...call(0) })));
    expect(out.filter((v) => v instanceof Error)).toEqual([]);
  }
}

const verdicts = (vs: unknown): string => JSON.stringify(vs);

describe("state repeat's ring growing in a full memory", () => {
  // first: it needs a memory not yet filled by the other test (regions for its options are carved at the top)
  it('should fail the call alone with a CapacityError when no other session can be evicted, recording nothing', () => {
    // a ring of 10,000 keys: its block outgrows what a full memory has left
    const big: LoopDetectorOptions = { detectors: { stateRepeat: { window: 10_000 } } };
    const e = new LoopEngine(big);
    const holder = new LoopEngine();
    const alone = new LoopDetector(big);
    const ref = new LoopDetector({ ...big, engine: 'reference', sessionId: 'one' });
    try {
      // the session starts before the other engine fills the memory
      expect(verdicts(e.check('one', call(0)))).toBe(verdicts(ref.check(call(0))));
      fill(holder, 'h');
      let failed: unknown = null;
      let recorded = 1;
      for (let i = 1; failed === null; i++) {
        expect(i, 'the ring never ran out of room').toBeLessThan(10_000);
        const out = e.checkBatch([{ session: 'one', ...call(i) }]);
        if (out[0] instanceof Error) failed = out[0];
        else {
          expect(verdicts(out[0]), `call ${i}`).toBe(verdicts(ref.check(call(i))));
          recorded++;
        }
      }
      expect(failed).toBeInstanceOf(CapacityError);
      expect((failed as Error).message).toMatch(/WebAssembly memory.*state ring/);
      // not recorded, not counted, the session as it was; the engine that holds the memory is unharmed
      const saved = e.snapshot('one');
      expect(e.sessionStats('one')?.checks).toBe(recorded);
      expect(() => e.check('one', call(recorded))).toThrow(CapacityError);
      expect(e.sessionStats('one')?.checks).toBe(recorded);
      expect(e.snapshot('one')).toEqual(saved);
      expect(holder.checkBatch(holder.sessionIds().slice(0, 3).map((session) => ({ session, ...call(1) }))).filter((v) => v instanceof Error)).toEqual([]);
      // a detector of its own fails the same way, through the module's own check
      let at = 0;
      expect(() => {
        for (; at < 10_000; at++) alone.check(call(at));
      }).toThrow(/WebAssembly memory.*state repeat's ring could not grow/);
      expect(alone.stats().checks).toBe(at);
    } finally {
      alone.dispose();
      holder.close();
      e.close();
    }
  });

  it('should evict the least recently used session and record the call, in batches and one call at a time', () => {
    const e = new LoopEngine();
    try {
      fill(e, 'f');
      // the newest sessions grow their rings (16 keys, then 32, ... 256) past what the memory has left
      const ids = e.sessionIds().slice(-40);
      const refs = new Map(ids.map((id) => [id, new LoopDetector({ engine: 'reference', sessionId: id })]));
      for (const r of refs.values()) r.check(call(0));
      const batched = ids.slice(0, 20);
      const single = ids.slice(20);
      const before = e.stats().evicted;
      let evictedByCheck = 0;
      for (let i = 1; i < 300; i++) {
        // half the sessions a call each in one batch; a few of them several calls in a row
        const events = batched.flatMap((session, k) => (k < 3 && i % 25 === 0 ? [0, 1, 2, 3, 4, 5, 6, 7] : [0]).map((d) => ({ session, ...call(i + d) })));
        const out = e.checkBatch(events);
        expect(out.filter((v) => v instanceof Error), `round ${i}`).toEqual([]);
        expect(verdicts(out), `round ${i}`).toBe(verdicts(events.map(({ session, ...ev }) => refs.get(session)?.check(ev))));
        // the other half one call at a time
        for (const id of single) {
          const was = e.stats().evicted;
          expect(verdicts(e.check(id, call(i))), `${id}, call ${i}`).toBe(verdicts(refs.get(id)?.check(call(i))));
          evictedByCheck += e.stats().evicted - was;
        }
      }
      expect(e.stats().evicted - evictedByCheck).toBeGreaterThan(before);
      expect(evictedByCheck).toBeGreaterThan(0);
      for (const id of ids) expect(e.has(id), id).toBe(true);
      expect(e.stats().detections).toBeGreaterThan(1_000);
    } finally {
      e.close();
    }
  });
});
