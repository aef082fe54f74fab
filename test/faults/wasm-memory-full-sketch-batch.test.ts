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
import type { SessionEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import type { LoopEngine } from '../../src/index.js';
import { inFullMemory, longCall as long, roundsMatchReference, shortCall as short } from './full-memory.js';

/**
 * Takes the room the fill left above the memory's top (less than a chunk of slots: how much depends on where
 * the module's static data ends: 864 B at integ 43c0a5d, 14 KB with 3.6 KB more static data, room for the
 * batch's 50 blocks) with large sketches of older sessions than `ids`, 50 at a time, until one could be had
 * only by an eviction; returns the sessions evicted so far. The batch's blocks can then come only from evictions.
 */
function takeTheRest(e: LoopEngine, ids: readonly string[]): number {
  const start = e.stats().evicted;
  const older = e.sessionIds().slice(0, -ids.length).reverse();
  for (let at = 0; e.stats().evicted === start; at += 50) {
    expect(at, 'the room left was never taken').toBeLessThan(older.length);
    e.checkBatch(older.slice(at, at + 50).map((session): SessionEvent => ({ session, ...long(0) })));
  }
  return e.stats().evicted;
}

limitMemoryForTesting(160);

describe('semantic sketch blocks in a full memory, a batch of many sessions', () => {
  it('should evict least recently used sessions rather than fail calls when the batch needs more blocks than are free', () => {
    // filled with one-call sessions of small sketches; the newest, each one call with a large sketch, all in one
    // batch (50 calls, as the batches that filled it: the outputs fit where theirs were)
    inFullMemory(short(0), 50, (e, ids, refs) => {
      const taken = takeTheRest(e, ids);
      roundsMatchReference(e, refs, (round) => ids.map((session): SessionEvent => ({ session, ...long(round) })));
      expect(e.stats().evicted, 'the batch made its room by evicting').toBeGreaterThan(taken);
    });
  });
});
