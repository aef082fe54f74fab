/**
 * Similar args keeps what it reads of its window's calls besides their args (tool, signature, outcome,
 * masked outcome, flags) on the host, from each call's output (src/state/recent-words.ts), so a batch
 * of one session's calls with similar args on crosses into the module once, not once a call (27,068
 * crossings for the traces' 28,505 calls before, 446 after), with the verdicts of the calls checked one by
 * one, proposals and a restored snapshot included.
 */
import { describe, expect, it } from 'vitest';
import { LoopDetector } from '../src/index.js';
import { sharedCore } from '../src/wasm/wasm-core.js';
import type { ToolEvent } from '../src/index.js';

/** Near-identical failing searches, a success now and then, of two tools. */
function calls(n: number): ToolEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    tool: i % 5 === 4 ? 'read' : 'search',
    args: { q: `find user rec${'ord'.slice(0, 1 + (i % 3))}`, page: i % 2 },
    ...(i % 7 === 6 ? { result: 'found 1 record' } : { error: 'search failed: no match' }),
  }));
}

// dead end off: this file is about similar args (test/policy-failing-again-crossings.test.ts has dead end's rule)
const detectors = { semantic: false, chanting: false, deadEnd: false } as const;

describe('similar args in a batch', () => {
  it('should take one crossing for a batch of one session\'s calls', () => {
    const d = new LoopDetector({ sessionId: 's', detectors });
    const before = sharedCore().crossings;
    d.checkMany(calls(64));
    expect(sharedCore().crossings - before).toBe(1);
  });

  it('should give the verdicts of the calls checked one by one, around proposals and a restored snapshot', () => {
    const all = calls(60);
    const proposal = { tool: 'search', args: { q: 'find user recor', page: 0 } };
    const one = new LoopDetector({ sessionId: 's', detectors });
    const want = all.map((c, i) => {
      if (i === 20) one.propose(proposal);
      return one.check(c);
    });
    const batched = new LoopDetector({ sessionId: 's', detectors });
    const got = [...batched.checkMany(all.slice(0, 20))];
    // a proposal is checked and rolled back: the window forgets it
    batched.propose(proposal);
    got.push(...batched.checkMany(all.slice(20, 40)));
    const restored = new LoopDetector({ sessionId: 's', detectors });
    restored.restore(batched.snapshot());
    got.push(...restored.checkMany(all.slice(40)));
    expect(got).toEqual(want);
    expect(want.some((v) => v?.signals.some((s) => s.kind === 'similar_args'))).toBe(true);
  });
});
