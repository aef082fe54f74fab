/**
 * Fault injection, WebAssembly memory full before any text was read: chanting copies a text's prose into the
 * thread's text area (32 KiB, one a thread) before its kernel reads it. Made at the first text, in a memory
 * already full it could not be had (it comes from the memory top, which evicting sessions never frees), and
 * every call with text failed with CapacityError however many sessions were evicted. It is made with the
 * thread's instance now, so a text in a full memory evicts for its session's region as any call does.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import { inFullMemory, shortCall as call, verdicts } from './full-memory.js';

limitMemoryForTesting(160);

describe("chanting's text area in a memory filled before any text", () => {
  it('should read the texts of calls and streamed text, evicting rather than failing, with the verdicts of the reference', () => {
    // no text before the memory fills: the engine's thread never read one
    inFullMemory(call(0), 20, (e, ids, refs) => {
      for (let round = 1; round <= 3; round++) {
        for (const [i, session] of ids.entries()) {
          const ev = { ...call(round), text: `step ${round} of ${i}: again I think the answer is here. again I think the answer is here.` };
          expect(verdicts(e.check(session, ev)), `${session} round ${round}`).toBe(verdicts(refs.get(session)?.check(ev)));
          const text = `and again the same words. and again the same words. (${round})\n`;
          expect(verdicts(e.checkText(session, text)), `${session} round ${round}`).toBe(verdicts(refs.get(session)?.checkText(text)));
        }
      }
    });
  });
});
