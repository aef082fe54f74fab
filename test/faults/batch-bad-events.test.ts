/**
 * Fault injection, batches: one event loopwatch cannot read (a result or error that is a null-prototype
 * cyclic object, args behind a Proxy whose traps throw, a revoked Proxy) in the middle of a batch of many
 * sessions. The batch never throws: the bad call's place holds its answer or its error, and every other
 * call gets the verdict it would get without the bad one (the promise of checkBatch, for every input).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LoopDetector, LoopEngine, LoopPool } from '../../src/index.js';
import type { SessionEvent, ToolEvent } from '../../src/index.js';
import { json, perSession } from '../helpers/verdicts.js';
import { settles } from './settle.js';

const nullProtoCycle = (): object => {
  const o = Object.create(null) as Record<string, unknown>;
  o.self = o;
  return o;
};
const throwingProxy = (): object => new Proxy({}, new Proxy({}, { get: (_t, trap) => () => { throw new Error(`trap ${String(trap)}`); } }));
const revoked = (): object => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};

/** Events the engine could not read, by name. */
export const UNREADABLE: Record<string, () => ToolEvent> = {
  'a null-prototype cyclic result': () => ({ tool: 'read', result: nullProtoCycle() }),
  'a null-prototype cyclic error': () => ({ tool: 'read', error: nullProtoCycle() }),
  'args behind a Proxy whose every trap throws': () => ({ tool: 'read', args: throwingProxy() }),
  'a revoked Proxy as args': () => ({ tool: 'read', args: revoked() }),
  'a revoked Proxy as result': () => ({ tool: 'read', result: revoked() }),
  'a revoked Proxy as error': () => ({ tool: 'read', error: revoked() }),
};

/** Calls of 6 sessions, looping, with the bad event (session "bad") in the middle. */
function batchWith(bad: ToolEvent): { events: SessionEvent[]; at: number } {
  const events: SessionEvent[] = [];
  for (let c = 0; c < 8; c++) for (let s = 0; s < 6; s++) events.push({ session: `ok${s}`, tool: 'search', args: { q: `item ${c % 2}` }, result: 'No results found.' });
  const at = events.length / 2;
  events.splice(at, 0, { ...bad, session: 'bad' });
  return { events, at };
}

function expectOthersUntouched(out: readonly unknown[], events: readonly SessionEvent[], at: number): void {
  expect(out.length).toBe(events.length);
  const others = events.filter((_, i) => i !== at);
  expect(out.filter((_, i) => i !== at).map(json)).toEqual(perSession(others));
  expect(out.filter((v) => v !== null && typeof v === 'object' && 'kind' in v).length).toBeGreaterThan(10);
}

const pools: LoopPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => settles(p.close(), 10_000, 'close()')));
});

describe('a batch with one event loopwatch cannot read', () => {
  for (const [name, bad] of Object.entries(UNREADABLE)) {
    it(`should answer every other call of LoopEngine.checkBatch, both engines (${name})`, () => {
      for (const engine of ['wasm', 'reference'] as const) {
        const { events, at } = batchWith(bad());
        const e = new LoopEngine({ engine });
        let out: unknown[] = [];
        expect(() => (out = e.checkBatch(events))).not.toThrow();
        expectOthersUntouched(out, events, at);
        for (let s = 0; s < 6; s++) expect(e.sessionStats(`ok${s}`)?.checks).toBe(8);
        e.close();
      }
    });

    it(`should answer every other call of LoopDetector.checkBatch (${name})`, () => {
      const { events, at } = batchWith(bad());
      const ds = new Map<string, LoopDetector>();
      const calls = events.map((ev) => {
        let d = ds.get(ev.session);
        if (d === undefined) ds.set(ev.session, (d = new LoopDetector({}, ev.session)));
        return { detector: d, event: ev };
      });
      let out: unknown[] = [];
      expect(() => (out = LoopDetector.checkBatch(calls))).not.toThrow();
      expectOthersUntouched(out, events, at);
      for (const d of ds.values()) d.dispose();
    });

    it(`should answer every other call of LoopPool.checkBatch, in a worker and in the calling thread (${name})`, async () => {
      for (const options of [{ workers: 2 }, { workers: 0, inlineShard: true }]) {
        const p = new LoopPool(options);
        pools.push(p);
        const { events, at } = batchWith(bad());
        const r = await settles(p.checkBatch(events), 10_000, 'checkBatch');
        expect(r.error).toBeUndefined();
        expectOthersUntouched(r.value as unknown[], events, at);
        expect((r.value as unknown[]).filter((v) => v instanceof Error).length).toBeLessThanOrEqual(1);
      }
    });
  }
});
