/**
 * Fault injection, WebAssembly memory full with its free room in slots too small for what a call asks: a
 * session's slot (896 B) is smaller than state repeat's ring at its full window (1 KB, a block beside the slot:
 * assembly/state-ring.ts), so freed slots alone never give a growing ring its block. When the memory cannot
 * grow, free slots and blocks side by side are merged (assembly/slots.ts' coalesce) and a new session's slot is
 * cut from a larger free entry. Here no engine can evict a session of another engine: the room must come from
 * the sessions another engine ended.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine } from '../../src/index.js';
import type { SessionEvent, ToolEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';

limitMemoryForTesting(160);

/** Call `i` of a session: states and results that come back every 7 calls, so detectors fire. */
const call = (i: number): ToolEvent => ({ tool: 'read', args: { p: i % 7 }, description: `at ${i % 7}`, result: `r${i % 7}` });

const verdicts = (vs: unknown): string => JSON.stringify(vs);

describe('a full memory whose free room is in slots smaller than a growing ring', () => {
  it("should merge the ended sessions' slots side by side for the ring, and cut new sessions' slots from them", () => {
    const holder = new LoopEngine();
    const grower = new LoopEngine();
    const newcomer = new LoopEngine();
    try {
      // fill the memory with one-call sessions until the holder evicts one to start another
      for (let from = 0; holder.stats().evicted === 0; from += 50) {
        expect(from, 'the memory never filled').toBeLessThan(20_000);
        const out = holder.checkBatch(Array.from({ length: 50 }, (_, i): SessionEvent => ({ session: `h${from + i}`, ...call(0) })));
        expect(out.filter((v) => v instanceof Error)).toEqual([]);
      }
      // the holder ends its 200 oldest sessions: their slots (carved 16 side by side) are free, each 896 B
      const ended = holder.sessionIds().slice(0, 200);
      for (const id of ended) expect(holder.end(id)).toBe(true);
      const kept = holder.sessionIds().length;
      const evicted = holder.stats().evicted;
      // a session of an engine that has no other to evict: its ring grows 16, 32, ... 256 keys (1 KB)
      const ref = new LoopDetector({ engine: 'reference', sessionId: 'g' });
      for (let i = 0; i < 300; i++) {
        expect(verdicts(grower.check('g', call(i))), `call ${i}`).toBe(verdicts(ref.check(call(i))));
      }
      expect(grower.stats().evicted).toBe(0);
      // new sessions of a third engine, which has none to evict either: slots cut from the merged free room
      const out = newcomer.checkBatch(Array.from({ length: 50 }, (_, i): SessionEvent => ({ session: `n${i}`, ...call(0) })));
      expect(out.filter((v) => v instanceof Error)).toEqual([]);
      expect(newcomer.sessionIds()).toHaveLength(50);
      // the holder's other sessions untouched
      expect(holder.sessionIds()).toHaveLength(kept);
      expect(holder.stats().evicted).toBe(evicted);
    } finally {
      newcomer.close();
      grower.close();
      holder.close();
    }
  });
});
