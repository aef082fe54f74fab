/**
 * Fault injection, WebAssembly memory full when a batch is wider than any before it: the thread's output and
 * unit-list areas hold the records of the widest batch run so far, and in a memory that cannot grow they
 * cannot be made larger (evicting sessions frees slots and blocks, not the memory top those areas come from).
 * A wider batch must then run in chunks the areas hold, evicting least recently used sessions as a narrow one
 * does, and no call fails. Verdicts stay those of the TypeScript reference, call by call.
 *
 * This file's thread stops its memory at 10 MiB (instead of 4 GiB), so a few thousand sessions fill it.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine } from '../../src/index.js';
import type { SessionEvent } from '../../src/index.js';
import { limitMemoryForTesting } from '../../src/wasm/wasm-module.js';
import { fillWithOneCallSessions, inFullMemory, longCall as long, roundsMatchReference, shortCall as short, verdicts } from './full-memory.js';

limitMemoryForTesting(160);

/** An engine whose memory was filled by batches of 50 one-call sessions, until it evicted to start another. */
function filled(): LoopEngine {
  const e = new LoopEngine();
  // no text first: the thread's chanting text area is made with its instance (wasm-memory-full-text-area.test.ts)
  fillWithOneCallSessions(e, short(0));
  return e;
}

describe('a batch wider than any before it, in a full memory', () => {
  it('should run in chunks and evict rather than fail its calls when its outputs do not fit the area (200 live sessions)', () => {
    inFullMemory(short(0), 200, (e, ids, refs) => {
      roundsMatchReference(e, refs, (round) => ids.map((session): SessionEvent => ({ session, ...long(round) })));
    });
  });

  it('should take new sessions in a batch of 200, evicting older ones, with the verdicts of one call at a time', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `n${i}`);
    inFullMemory(short(0), ids, (e, ids, refs) => {
      roundsMatchReference(e, refs, (round) => ids.map((session, i): SessionEvent => ({ session, ...(i % 2 === 0 ? long(round) : short(round)) })));
    });
  });
  // s21 mem35 found, mem36 fixed: a live session's chanting region is made when its first text is read, and the
  // engine's room for a call (LoopEngine.roomForCall) did not count it, so in a full memory the call failed with
  // CapacityError ("no room for another session of 2480 bytes") rather than evicting, one call at a time too.
  // The call's text now has the region made before it is read (LoopDetector.reserve with `text`).
  it('should give the first text of 200 sessions its chanting region in a batch run in chunks, failing no call', () => {
    inFullMemory(short(0), 200, (e, ids, refs) => {
      // each call's text is its session's first (round 1): the chanting region is made as the call's output is read
      roundsMatchReference(e, refs, (round) => ids.map((session, i): SessionEvent => ({ session, ...long(round), text: `step ${round} of ${i}: thinking about the query again.` })));
    });
  });

  it('should give the first text of sessions its chanting region one call at a time, evicting rather than failing', () => {
    inFullMemory(short(0), 200, (e, ids, refs) => {
      for (const [i, session] of ids.entries()) {
        const ev = { ...long(1), text: `step 1 of ${i}: thinking about the query again.` };
        expect(verdicts(e.check(session, ev)), session).toBe(verdicts(refs.get(session)?.check(ev)));
      }
    });
  });

  it('should give streamed text (checkText) its chanting region in a full memory, evicting rather than failing', () => {
    inFullMemory(short(0), 200, (e, ids, refs) => {
      for (let round = 1; round <= 3; round++) {
        for (const session of ids) {
          const text = `again I think the answer is here. again I think the answer is here. (${round})\n`;
          expect(verdicts(e.checkText(session, text)), `${session} round ${round}`).toBe(verdicts(refs.get(session)?.checkText(text)));
        }
      }
    });
  });

  it('should give the first text of a recorded call its chanting region (record, decideBatch), evicting rather than failing', () => {
    inFullMemory(short(0), 200, (e, ids, refs) => {
      for (const [i, session] of ids.entries()) {
        const ev = { ...long(1), id: `c${i}`, text: `step 1 of ${i}: thinking about the query again.` };
        const ref = refs.get(session) as LoopDetector;
        expect(verdicts(e.propose(session, ev)), session).toBe(verdicts(ref.propose(ev)));
        const got = i % 2 === 0 ? e.record(session, ev) : e.decideBatch([{ session, phase: 'record', ...ev }])[0];
        expect(verdicts(got), session).toBe(verdicts(ref.record(ev)));
      }
    });
  });

  it('should save the same snapshot for a session whose first text had its region made before it was read', () => {
    const e = filled();
    const ids = e.sessionIds().slice(-20);
    const text = (i: number): string => `step 1 of ${i}: thinking about the query again.`;
    const saved = new Map<string, Uint8Array | null>();
    try {
      const before = e.stats().evicted;
      for (const [i, session] of ids.entries()) e.check(session, { ...long(1), text: text(i) });
      expect(e.stats().evicted).toBeGreaterThan(before);
      for (const id of ids) saved.set(id, e.snapshot(id));
    } finally {
      e.close();
    }
    // WebAssembly detectors of their own given the same calls, in the memory the engine freed: their streams are made by the text
    for (const [i, id] of ids.entries()) {
      const d = new LoopDetector({ sessionId: id });
      try {
        d.check(short(0));
        d.check({ ...long(1), text: text(i) });
        expect(Buffer.from(saved.get(id) ?? []).equals(Buffer.from(d.snapshot())), id).toBe(true);
      } finally {
        d.dispose();
      }
    }
  });
});
