/**
 * Fault injection, WebAssembly memory full while a batch's sessions each need a semantic sketch block: each
 * call's sketch takes a block of its length's class (assembly/sketch-blocks.ts), so a session already live
 * needs memory on a later call. When the memory cannot grow, a batch whose sessions each ask for room must
 * not all count the same free blocks: the calls the free blocks cannot hold evict the least recently used
 * sessions as a new session's slot does, and no call fails. Verdicts stay those of the TypeScript reference.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine } from '../../src/index.js';
import type { SessionEvent, ToolEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import { fillWithOneCallSessions } from './full-memory.js';

limitMemoryForTesting(160);

/** A call whose description is short: a sketch of a few hashes (a small block). */
const short = (i: number): ToolEvent => ({ tool: 'read', args: { p: i % 7 }, description: `at ${i % 7}`, result: `r${i % 7}` });

/** A call whose description has many distinct words: a sketch of k hashes (the largest block). */
const long = (i: number): ToolEvent => ({
  tool: 'search',
  args: { q: `query ${i}` },
  description: Array.from({ length: 40 }, (_, w) => `word${w}x${i % 5}`).join(' '),
  result: `found ${i % 5}`,
});

const verdicts = (vs: unknown): string => JSON.stringify(vs);

describe('semantic sketch blocks in a full memory, a batch of many sessions', () => {
  it('should evict least recently used sessions rather than fail calls when the batch needs more blocks than are free', () => {
    const e = new LoopEngine();
    try {
      // fill the memory with one-call sessions of small sketches until the engine evicts to start another
      fillWithOneCallSessions(e, short(0));
      // the newest sessions, each one call with a large sketch, all in one batch (50 calls, as the batches that filled it: the outputs fit where theirs were)
      const ids = e.sessionIds().slice(-50);
      const refs = new Map(ids.map((id) => [id, new LoopDetector({ engine: 'reference', sessionId: id })]));
      for (const r of refs.values()) r.check(short(0));
      const filled = e.stats().evicted;
      for (let round = 1; round <= 3; round++) {
        const events = ids.map((session): SessionEvent => ({ session, ...long(round) }));
        const out = e.checkBatch(events);
        expect(out.filter((v) => v instanceof Error).map((v) => (v as Error).message).slice(0, 1), `round ${round}`).toEqual([]);
        expect(verdicts(out), `round ${round}`).toBe(verdicts(events.map(({ session, ...ev }) => refs.get(session)?.check(ev))));
      }
      // the room came from evicting older sessions (none of the batch's)
      expect(e.stats().evicted).toBeGreaterThan(filled);
      for (const id of ids) expect(e.has(id), id).toBe(true);
    } finally {
      e.close();
    }
  });
});
