/**
 * Helper of the fault-injection suite's full-memory files: fills the thread's WebAssembly memory (stopped
 * by the file at a few MiB with limitMemoryForTesting) with one-call sessions, batch by batch, until the
 * engine has to evict a session to start another.
 */
import { expect } from 'vitest';
import type { LoopEngine, SessionEvent, ToolEvent } from '../../src/index.js';

/**
 * Checks batches of 50 new sessions of one call (`call`) each, ids `f0`, `f1`, ..., until the engine has
 * evicted a session (the memory is full); fails the test when a call fails or the memory never fills
 * within 40,000 sessions.
 */
export function fillWithOneCallSessions(e: LoopEngine, call: ToolEvent): void {
  for (let from = 0; e.stats().evicted === 0; from += 50) {
    expect(from, 'the memory never filled').toBeLessThan(40_000);
    const out = e.checkBatch(Array.from({ length: 50 }, (_, i): SessionEvent => ({ session: `f${from + i}`, ...call })));
    expect(out.filter((v) => v instanceof Error)).toEqual([]);
  }
}
