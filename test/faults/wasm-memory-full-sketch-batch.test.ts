/**
 * Fault injection, WebAssembly memory full while a batch's sessions each need a semantic sketch block: each
 * call's sketch takes a block of its length's class (assembly/sketch-blocks.ts), so a session already live
 * needs memory on a later call. When the memory cannot grow, a batch whose sessions each ask for room must
 * not all count the same free blocks: the calls the free blocks cannot hold evict the least recently used
 * sessions as a new session's slot does, and no call fails. Verdicts stay those of the TypeScript reference.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB), so a few thousand sessions fill it.
 */
import { describe, it } from 'vitest';
import type { SessionEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import { inFullMemory, longCall as long, roundsMatchReference, shortCall as short } from './full-memory.js';

limitMemoryForTesting(160);

describe('semantic sketch blocks in a full memory, a batch of many sessions', () => {
  it('should evict least recently used sessions rather than fail calls when the batch needs more blocks than are free', () => {
    // filled with one-call sessions of small sketches; the newest, each one call with a large sketch, all in one
    // batch (50 calls, as the batches that filled it: the outputs fit where theirs were)
    inFullMemory(short(0), 50, (e, ids, refs) => {
      roundsMatchReference(e, refs, (round) => ids.map((session): SessionEvent => ({ session, ...long(round) })));
    });
  });
});
