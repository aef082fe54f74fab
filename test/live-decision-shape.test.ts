/** liveDecision: plain frozen data, members in one order, an id and a message only when there are some. */
import { describe, expect, it } from 'vitest';
import { type LiveAction, liveDecision } from '../src/live/live-call.js';
import type { Verdict } from '../src/index.js';

/** The decision as the conditional-spread literal once wrote it (the reference for shape and order). */
function reference(session: string, phase: 'propose' | 'record', id: string | undefined, action: LiveAction, verdict: Verdict | null): object {
  return { session, phase, ...(id === undefined ? {} : { id }), action, ...(action === 'allow' || verdict === null ? {} : { message: verdict.message }), verdict };
}

const verdict = { kind: 'exact_repeat', action: 'warn', message: 'You appear to be in a loop' } as unknown as Verdict;

describe('liveDecision', () => {
  for (const phase of ['propose', 'record'] as const) {
    for (const id of [undefined, 'call-7']) {
      for (const action of ['allow', 'warn', 'ask', 'deny', 'stop'] as const) {
        for (const v of [null, verdict]) {
          it(`should be frozen and shaped as before: ${phase}, ${id ?? 'no id'}, ${action}, ${v === null ? 'no verdict' : 'a verdict'}`, () => {
            const d = liveDecision('s1', phase, id, action, v);
            expect(Object.isFrozen(d)).toBe(true);
            expect(Object.keys(d)).toEqual(Object.keys(reference('s1', phase, id, action, v)));
            expect(JSON.stringify(d)).toBe(JSON.stringify(reference('s1', phase, id, action, v)));
            expect('message' in d).toBe(action !== 'allow' && v !== null);
            expect('id' in d).toBe(id !== undefined);
          });
        }
      }
    }
  }
});
