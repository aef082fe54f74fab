/**
 * hostile32: a NATS worker's deliveries not yet checked are taken round-robin between sessions
 * (fair-queue.ts), each session's in the order they came: a session's backlog no longer holds up a
 * neighbour's call. Property: whatever the pushes and takes, each key's items come out in push order, and
 * no key gives a second item in a take before every key with items pending gave one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../src/serve/nats/fair-queue.js';

describe('FairQueue', () => {
  it('should take one delivery of each key in turn, a key with more going to the end of the ring', () => {
    const q = new FairQueue<string>();
    for (let i = 1; i <= 4; i++) q.push('flood', `f${i}`);
    q.push('legit', 'l1');
    q.push('other', 'o1');
    q.push('other', 'o2');
    expect(q.take(5)).toEqual(['f1', 'l1', 'o1', 'f2', 'o2']);
    q.push('legit', 'l2');
    expect(q.take(10)).toEqual(['f3', 'l2', 'f4']);
    expect(q.size).toBe(0);
  });

  it('should keep each key\'s order and serve every pending key before any twice, whatever the pushes and takes', () => {
    const op = fc.oneof(fc.record({ push: fc.constantFrom('a', 'b', 'c', 'd') }), fc.record({ take: fc.integer({ min: 1, max: 6 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const q = new FairQueue<[string, number]>();
        const pushed = new Map<string, number>();
        const out = new Map<string, number[]>();
        for (const o of ops) {
          if ('push' in o) {
            const n = pushed.get(o.push) ?? 0;
            pushed.set(o.push, n + 1);
            q.push(o.push, [o.push, n]);
            continue;
          }
          const pending = new Set([...pushed].filter(([k, n]) => (out.get(k)?.length ?? 0) < n).map(([k]) => k));
          const got = q.take(o.take);
          expect(got.length).toBe(Math.min(o.take, [...pushed].reduce((s, [k, n]) => s + n - (out.get(k)?.length ?? 0), 0)));
          // the first round of this take: each pending key at most once before all of them gave one
          const first = got.slice(0, pending.size).map(([k]) => k);
          expect(new Set(first).size).toBe(first.length);
          for (const [k, i] of got) {
            const list = out.get(k) ?? [];
            list.push(i);
            out.set(k, list);
          }
        }
        for (const [k, list] of out) expect(list, k).toEqual(list.map((_, i) => i));
        const rest = q.clear();
        expect(rest.length + [...out.values()].reduce((s, l) => s + l.length, 0)).toBe([...pushed.values()].reduce((s, n) => s + n, 0));
      }),
      { numRuns: 500 },
    );
  });
});
