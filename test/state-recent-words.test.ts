/**
 * The host's copy of a session's newest ring words (src/state/recent-words.ts) answers as the rings do
 * (src/state/call-history.ts): signatures and outcomes of the newest `reach` calls, tools, masked outcomes
 * and flags of the newest `slots`, around proposals rolled back and after a refill from the rings; its words
 * in an array of its own or in a block of the thread's shared chunks beside another ring's; dropped (its
 * session disposed), the block goes back as it is and the next ring takes it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallHistory, Ring, type RingId } from '../src/state/call-history.js';
import { RecentWords } from '../src/state/recent-words.js';

interface Step {
  readonly words: readonly [number, number, number, number, number];
  readonly proposal: boolean;
}

const step = fc.record({ words: fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3), fc.nat(3), fc.nat(255)), proposal: fc.boolean() });

function record(h: CallHistory, [tool, sig, outcome, masked, flags]: readonly number[]): void {
  const s = h.slot(h.advance());
  h.sig[s] = sig as number;
  h.tool[s] = tool as number;
  h.outcome[s] = outcome as number;
  h.masked[s] = masked as number;
  h.flags[s] = flags as number;
}

/** Every pair the words hold agrees with the rings. */
function agrees(w: RecentWords, h: CallHistory): void {
  expect(w.count).toBe(h.count);
  const n = h.count;
  const pairs = (from: number, rings: RingId[]) => {
    for (const ring of rings) for (let i = from; i < n; i++) for (let j = from; j < n; j++) expect(w.same(ring, i, j)).toBe(h.same(ring, i, j));
  };
  pairs(Math.max(0, n - w.reach), [Ring.SIG, Ring.OUTCOME]);
  pairs(Math.max(0, n - w.slots), [Ring.TOOL, Ring.MASKED]);
  for (let i = Math.max(0, n - w.slots); i < n; i++) expect(w.flagsOf(i)).toBe(h.flagsOf(i));
  expect(w.oldest).toBe(Math.max(0, n - w.reach));
}

describe('recent words', () => {
  it('should answer as the rings do, proposals rolled back and after a refill', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 12 }), fc.array(step, { maxLength: 60 }), fc.boolean(), (slots, more, steps: Step[], shared) => {
        const reach = slots + more;
        // shared: in a block of the thread's chunks beside another ring's
        const w = new RecentWords(slots, reach, shared);
        const other = shared ? new RecentWords(slots, reach, true) : null;
        const h = new CallHistory(64);
        for (const s of steps) {
          other?.push(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xff);
          if (s.proposal) {
            w.mark();
            h.mark();
          }
          const [tool, sig, outcome, masked, flags] = s.words;
          w.push(tool, sig, outcome, masked, flags);
          record(h, s.words);
          if (s.proposal) {
            w.rollback();
            h.rollback();
          }
          agrees(w, h);
        }
        if (shared) {
          // dropped: its block goes back as it is, and the next ring of its size takes it
          const held = w as unknown as { words: Uint32Array; base: number };
          const { words, base } = held;
          w.dropWords();
          expect(held.words.length).toBe(0);
          const next = new RecentWords(slots, reach, true) as unknown as { words: Uint32Array; base: number };
          expect(next.words).toBe(words);
          expect(next.base).toBe(base);
          (next as unknown as RecentWords).dropWords();
        }
        other?.dropWords();
        const refilled = new RecentWords(slots, reach);
        const word = (ring: RingId, i: number): number => [h.sig, h.tool, h.outcome, h.masked, h.error][ring]?.[h.slot(i)] as number;
        refilled.fill(h.count, word, (i) => h.flagsOf(i));
        agrees(refilled, h);
      }),
    );
  });

  it('should refuse a reach shorter than its slots, and a ring it does not keep', () => {
    expect(() => new RecentWords(4, 3)).toThrow(RangeError);
    expect(() => new RecentWords(2, 4).same(Ring.ERROR, 0, 1)).toThrow(RangeError);
  });
});
