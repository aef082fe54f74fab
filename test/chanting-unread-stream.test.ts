/**
 * A call with text has chanting's stream region made when the engine makes room for the call, before the
 * call is read (LoopDetector.reserve with `text`: in a full memory the engine evicts for it). When such a call
 * then reads no text (its record is refused, or comes late and is ignored), the session's snapshot must not
 * hold a stream its calls never fed: it is the snapshot of the session without that call, and the session
 * restored from it goes on with the same verdicts.
 */
import { describe, expect, it } from 'vitest';
import { InvalidEventError, LoopDetector, LoopEngine, PENDING_PROPOSALS } from '../src/index.js';
import type { LiveCall, SessionLiveCall } from '../src/index.js';

const read = (i: number): LiveCall => ({ tool: 'read', args: { path: `f${i}.py` }, result: `text ${i}` });
const talk = 'again I think the answer is here. again I think the answer is here.';

/** The snapshot a session of the engine's defaults saves after `calls` (each checked). */
function snapshotAfter(calls: readonly LiveCall[]): Uint8Array {
  const d = new LoopDetector({ sessionId: 's' });
  try {
    for (const c of calls) d.check(c);
    return d.snapshot();
  } finally {
    d.dispose();
  }
}

const same = (a: Uint8Array | null, b: Uint8Array): boolean => a !== null && Buffer.from(a).equals(Buffer.from(b));

describe("chanting's stream made for a call that then reads no text", () => {
  it('should leave no stream in the snapshot when a record with text is refused (an invalid id)', () => {
    const e = new LoopEngine();
    try {
      e.check('s', read(1));
      expect(() => e.record('s', { ...read(2), id: '', text: talk })).toThrow(InvalidEventError);
      expect(same(e.snapshot('s'), snapshotAfter([read(1)]))).toBe(true);
    } finally {
      e.close();
    }
  });

  it('should leave no stream in the snapshot when streamed text that is not a string is refused (checkText)', () => {
    const e = new LoopEngine();
    try {
      e.check('s', read(1));
      expect(() => e.checkText('s', 42 as unknown as string)).toThrow(InvalidEventError);
      expect(same(e.snapshot('s'), snapshotAfter([read(1)]))).toBe(true);
    } finally {
      e.close();
    }
  });

  it('should leave no stream in the snapshot when decideBatch refuses a record with text', () => {
    const e = new LoopEngine();
    try {
      e.check('s', read(1));
      const out = e.decideBatch([{ session: 's', phase: 'record', ...read(2), id: 'x'.repeat(100_000), text: talk } as SessionLiveCall]);
      expect(out[0]).toBeInstanceOf(InvalidEventError);
      expect(same(e.snapshot('s'), snapshotAfter([read(1)]))).toBe(true);
    } finally {
      e.close();
    }
  });

  it('should leave no stream in the snapshot when a late record with text is ignored, and go on with the verdicts of a session that had none', () => {
    const e = new LoopEngine();
    const ref = new LoopDetector({ sessionId: 's' });
    try {
      // 'slow' waits PENDING_PROPOSALS proposals, then is recorded without outcome: its record comes late
      for (const d of [e, ref] as const) {
        const at = (c: LiveCall) => (d instanceof LoopEngine ? d.propose('s', c) : d.propose(c));
        const rec = (c: LiveCall) => (d instanceof LoopEngine ? d.record('s', c) : d.record(c));
        at({ id: 'slow', tool: 'bash', args: { command: 'npm test' } });
        for (let i = 0; i < PENDING_PROPOSALS; i++) {
          at({ ...read(i), id: `r${i}`, result: undefined });
          rec({ ...read(i), id: `r${i}` });
        }
        at({ ...read(99), id: 'next', result: undefined });
      }
      const late = e.record('s', { id: 'slow', tool: 'bash', args: { command: 'npm test' }, result: 'passed', text: talk });
      expect(late).toMatchObject({ late: true, verdict: null });
      const saved = e.snapshot('s');
      expect(same(saved, ref.snapshot())).toBe(true);
      // restored, it reads its first text as the session that never had one (and so does the engine's)
      const back = new LoopDetector({ sessionId: 's' });
      try {
        back.restore(saved as Uint8Array);
        for (let i = 0; i < 4; i++) {
          const c = { ...read(200), text: talk };
          const want = JSON.stringify(ref.check(c));
          expect(JSON.stringify(back.check(c)), `call ${i}`).toBe(want);
          expect(JSON.stringify(e.check('s', c)), `call ${i}`).toBe(want);
        }
        expect(same(e.snapshot('s'), back.snapshot())).toBe(true);
      } finally {
        back.dispose();
      }
    } finally {
      ref.dispose();
      e.close();
    }
  });
});
