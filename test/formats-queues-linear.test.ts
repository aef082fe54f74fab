/**
 * hostile8: the readers' queues and remembered ids cost O(1) a call at any length. Before, a Claude Code
 * message of 256,000 tool uses took 34 s to read (each call taken off the front of an array:
 * `Array.prototype.shift` moves every element of a large array), a chat conversation of 256,000 calls sharing
 * an id 4.4 s, and every call id past the 65,536 remembered cost 30-60 us (`map.delete(map.keys().next().value)`
 * steps over every entry deleted since V8 last rebuilt the table: 512,000 calls 16.3 s). Growth is timed as
 * in redaction-linear-time.test.ts: CPU time, the least of alternating runs; linear is 16x for 16x the
 * calls, quadratic 256x; the cap's cost is compared at two caps (before: ~22x from 1,024 to 65,536).
 * The containers are also held to the plain Array and Map they replace, on random operations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallIds } from '../src/formats/call-ids.js';
import { CappedMap } from '../src/formats/capped-map.js';
import { ClaudeCodeSessions } from '../src/formats/claude-code-sessions.js';
import { Fifo } from '../src/formats/fifo.js';
import { HeldCalls } from '../src/formats/held-calls.js';
import { TextTurns } from '../src/formats/mini-swe-text.js';
import { SessionCalls } from '../src/formats/session-calls.js';

/** CPU milliseconds of `run(small)` and `run(large)`, the least of alternating runs. */
function timed(run: (n: number) => unknown, small: number, large: number, runs = 3): { small: number; large: number } {
  const t = (n: number): number => {
    const c0 = process.cpuUsage();
    run(n);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const s: number[] = [];
  const l: number[] = [];
  for (let r = 0; r < runs; r++) {
    s.push(t(small));
    l.push(t(large));
  }
  return { small: Math.max(Math.min(...s), FLOOR_MS), large: Math.min(...l) };
}

/**
 * Below this, a small run's time is timer and cache noise: growth is measured against it. A fresh-clone CI run
 * at a load of ~12 took 87 ms for 128,000 calls sharing one id after 1.1 ms for 8,000 (80x, linear work: the
 * large run's arrays leave the cache and reach the old generation); the quadratic cost this guards against
 * took ~1 s at 128,000 (16.3 s at 512,000). s30's fresh-clone CI (load ~4) took 205 ms for 128,000 commands of
 * one mini-swe-agent reply after under 3 ms for 8,000 (the floor: 192 ms allowed), where the quadratic cost
 * this guards against took ~12 s at 160,000: the floor at 6 ms (384 ms allowed) still catches ~1 s.
 */
const FLOOR_MS = 6;

/** Most the time may grow for 16x the calls: 16x is linear, 256x quadratic; collections add some. */
const MAX_GROWTH_16X = 64;
const at = { file: 'f.jsonl', line: 1 };

describe('the readers\' queues on hostile lengths', () => {
  it('should release 128,000 calls held at once (one message of tool uses) in time linear in their number', () => {
    const run = (n: number): number => {
      const held = new HeldCalls('s');
      for (let i = 0; i < n; i++) held.hold(`t${i}`, { tool: 'Bash', ...at });
      let k = 0;
      for (const _ of held.release()) k++;
      return k;
    };
    expect(run(3000)).toBe(3000 - 1024);
    const { small, large } = timed(run, 8000, 128_000);
    expect(large, `128,000 calls ${large.toFixed(0)} ms, 8,000 ${small.toFixed(0)} ms`).toBeLessThan(MAX_GROWTH_16X * small);
  });

  it('should pair 128,000 results with calls sharing one id in time linear in their number', () => {
    const run = (n: number): number => {
      const calls = new SessionCalls('s', 'f', 1);
      for (let i = 0; i < n; i++) calls.call('x', { tool: 'bash' });
      let paired = 0;
      for (let i = 0; i < n; i++) if (calls.result('x', 'r', 'absent') === null) paired++;
      return paired;
    };
    expect(run(3000)).toBe(3000);
    const { small, large } = timed(run, 8000, 128_000);
    expect(large, `128,000 calls ${large.toFixed(0)} ms, 8,000 ${small.toFixed(0)} ms`).toBeLessThan(MAX_GROWTH_16X * small);
  });

  it('should answer 128,000 calls sharing one id by their place (ATIF\'s results without an id) in time linear in their number', () => {
    // hostile13: as atif.ts pairs them, the last result the last call; each answer searched the id's queue
    // (Fifo.remove from its front): 160,000 such calls in one ATIF step took 18 CPU-s to scan
    const run = (n: number): number => {
      const calls = new SessionCalls('s', 'f', 1);
      for (let i = 0; i < n; i++) calls.call('x', { tool: 'bash' });
      for (let k = n - 1; k >= 0; k--) calls.resultAt(k, 'r', 'absent');
      return calls.waits('x') ? -1 : n;
    };
    expect(run(3000)).toBe(3000);
    const { small, large } = timed(run, 8000, 128_000);
    expect(large, `128,000 calls ${large.toFixed(0)} ms, 8,000 ${small.toFixed(0)} ms`).toBeLessThan(MAX_GROWTH_16X * small);
  });

  it('should pair 128,000 commands of one mini-swe-agent reply (extra.actions) with their outputs in time linear in their number', () => {
    // hostile13: each output took the oldest command off an array (Array.prototype.shift): a trajectory of
    // one reply with 160,000 actions took 12 CPU-s to scan
    const run = (n: number): number => {
      const calls = new SessionCalls('s', 'f', 1);
      const turns = new TextTurns(calls);
      turns.reply({ extra: { actions: Array.from({ length: n }, (_, i) => ({ command: `ls ${i % 3}` })) } }, undefined, 0);
      for (let i = 0; i < n; i++) turns.observation({}, '<returncode>0</returncode>');
      turns.flush();
      let answered = 0;
      for (const it of calls.items()) if (it.kind === 'call' && it.errorInfo === 'absent') answered++;
      return answered;
    };
    expect(run(3000)).toBe(3000);
    const { small, large } = timed(run, 8000, 128_000);
    expect(large, `128,000 commands ${large.toFixed(0)} ms, 8,000 ${small.toFixed(0)} ms`).toBeLessThan(MAX_GROWTH_16X * small);
  });

  it('should pair results by id and by place as a plain list of the calls still waiting does', () => {
    // the model: per id, the positions not yet answered, oldest first; a result by id answers the oldest
    const op = fc.oneof(
      fc.record({ call: fc.constantFrom('a', 'b', undefined) }),
      fc.record({ result: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ at: fc.nat(60) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      const calls = new SessionCalls('s', 'f', 1);
      const ids: (string | undefined)[] = [];
      const answer: (string | null)[] = [];
      ops.forEach((o, step) => {
        if ('call' in o) {
          expect(calls.call(o.call, { tool: 't' })).toBe(ids.length);
          ids.push(o.call);
          answer.push(null);
        } else if ('result' in o) {
          const n = ids.findIndex((id, i) => id === o.result && answer[i] === null);
          expect(calls.result(o.result, `r${step}`, 'absent') === null).toBe(n >= 0);
          if (n >= 0) answer[n] = `r${step}`;
        } else if (o.at < ids.length) {
          calls.resultAt(o.at, `r${step}`, 'absent');
          answer[o.at] = `r${step}`;
        }
        for (const id of ['a', 'b', 'c']) expect(calls.waits(id)).toBe(ids.some((d, i) => d === id && answer[i] === null));
        for (let i = 0; i < ids.length; i++) expect(calls.answered(i)).toBe(answer[i] !== null);
      });
      const got = [...calls.items()].flatMap((it) => (it.kind === 'call' ? [it.event.result ?? null] : []));
      expect(got).toEqual(answer);
    }), { numRuns: 300 });
  });

  it('should remember call ids and sidechain roots at a cost a call that does not grow with how many are remembered', () => {
    const ids = (cap: number): void => {
      const c = new CallIds<number>(cap);
      for (let i = 0; i < 100_000; i++) c.call(`toolu_${i}`, i);
    };
    const roots = (cap: number): void => {
      const s = new ClaudeCodeSessions('f', cap);
      for (let i = 0; i < 100_000; i++) s.of({ sessionId: 's', isSidechain: true, uuid: `u${i}`, parentUuid: `u${i - 1}` });
    };
    for (const run of [ids, roots]) {
      const { small, large } = timed(run, 256, 65_536);
      expect(large, `cap 65,536 ${large.toFixed(0)} ms, cap 256 ${small.toFixed(0)} ms`).toBeLessThan(8 * small);
    }
  });

  it('should keep, take and remove items as an array does', () => {
    const op = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 20 }) }), fc.constant('shift' as const), fc.record({ remove: fc.integer({ min: 0, max: 20 }) }));
    fc.assert(fc.property(fc.array(op, { maxLength: 4000 }), (ops) => {
      const q = new Fifo<number>();
      const a: number[] = [];
      for (const o of ops) {
        if (o === 'shift') expect(q.shift()).toBe(a.shift());
        else if ('push' in o) (q.push(o.push), a.push(o.push));
        else {
          const i = a.indexOf(o.remove);
          if (i >= 0) a.splice(i, 1);
          expect(q.remove(o.remove)).toBe(i >= 0);
        }
        expect([q.length, q.peek()]).toEqual([a.length, a[0]]);
      }
    }), { numRuns: 200 });
  });

  it('should forget the keys a Map forgetting its first key past the cap forgets', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer()), { maxLength: 3000 }), (max, sets) => {
      const capped = new CappedMap<number, number>(max);
      const map = new Map<number, number>();
      for (const [k, v] of sets) {
        capped.set(k, v);
        map.set(k, v);
        if (map.size > max) map.delete(map.keys().next().value as number);
        expect(capped.size).toBe(map.size);
        for (const key of [k, (k + 7) % 81]) expect([capped.has(key), capped.get(key)]).toEqual([map.has(key), map.get(key)]);
      }
    }), { numRuns: 200 });
  });
});
