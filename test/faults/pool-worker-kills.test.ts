/**
 * Fault injection, LoopPool: workers killed while batches are in flight, while their replacements start
 * up, twice in a row, at random moments. Whatever dies, every promise the pool hands out settles (a
 * verdict, a SessionLostError in a lost call's place, or an error naming the shard), `stats()` and
 * `close()` finish, and every session whose state went is reported by a 'sessionLost' event. The same for
 * two-phase calls (propose, record), whose sessions carry on from a point they really went through.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LoopDetector, LoopPool, SessionLostError } from '../../src/index.js';
import type { LostSession, SessionEvent, ToolEvent } from '../../src/index.js';
import { runs, stream } from '../helpers/streams.js';
import { json } from '../helpers/verdicts.js';
import { LEGITIMATE, STUCK } from '../helpers/live-scenarios.js';
import { scenarioFleet } from '../helpers/live-fleet.js';
import { LiveOracle, type LiveStep } from './live-oracle.js';
import { Progress, killReplacement, settles, threadOf } from './settle.js';

/**
 * Time for one of the kill-schedule properties. A hang fails on its own, naming what hung (every promise
 * awaited here is bounded by settles()); this only bounds the whole. A run is ~0.5 s of CPU (its workers
 * started again and again: threads, modules, WebAssembly), but on 2 cores at a load of ~16 a run took
 * 1.2-6.5 s, and 12 runs 34 s; under the full suite's heaviest load (~25) the two-phase property went past
 * 60 s without any promise hanging.
 */
const PROPERTY_MS = 240_000;

const pools: LoopPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => settles(p.close(), 10_000, 'close()')));
});

const fleet = (prefix: string, sessions: number, calls: number): SessionEvent[] => {
  const out: SessionEvent[] = [];
  for (let c = 0; c < calls; c++) for (let s = 0; s < sessions; s++) out.push({ session: `${prefix}${s}`, tool: 'read', args: { q: `item ${(c * (s + 1)) % 4}` }, result: `row ${c % 3}` });
  return out;
};

/** Kills `shard`'s worker, then `startups` of its replacements while they start up. */
async function killShard(p: LoopPool, shard: number, startups: number): Promise<void> {
  let old = threadOf(p, shard);
  await old?.terminate();
  for (let n = 0; n < startups; n++) {
    const next = threadOf(p, shard);
    if (!(await killReplacement(p, shard, old, 2000))) break;
    old = next === old ? undefined : next;
  }
}

describe('LoopPool when workers die', () => {
  it('should settle the in-flight batch, later batches, stats() and close() when a worker dies mid-batch and its replacement dies starting up', async () => {
    const p = new LoopPool({ workers: 1, maxBatch: 100_000 });
    pools.push(p);
    const lost: LostSession[] = [];
    p.on('sessionLost', (s: LostSession) => lost.push(s));
    await p.checkBatch(fleet('warm', 1, 1)); // the worker is up and idle
    const first = threadOf(p, 0);
    const inFlight = p.checkBatch(fleet('f', 50, 200)); // one batch, sent at once
    await first?.terminate();
    expect(await killReplacement(p, 0, first)).toBe(true);
    const later = p.checkBatch(fleet('g', 5, 2));
    const stats = p.stats();

    const a = await settles(inFlight, 10_000, 'the in-flight batch');
    expect(a.error).toBeUndefined();
    const out = a.value as unknown[];
    expect(out.length).toBe(50 * 200);
    expect(out.every((v) => v instanceof SessionLostError)).toBe(true);
    const b = await settles(later, 10_000, 'a later batch');
    expect(b.value?.filter((v) => v instanceof Error)).toEqual([]);
    const st = await settles(stats, 10_000, 'stats()');
    expect(st.value?.workerRestarts).toBeGreaterThanOrEqual(1);
    expect(new Set(lost.map((s) => s.sessionId))).toEqual(new Set([...Array.from({ length: 50 }, (_, i) => `f${i}`), 'warm0']));
    expect((await settles(p.close(), 10_000, 'close()')).error).toBeUndefined();
  });
});

/**
 * One session's calls, one after the other, each checked against a LoopDetector fed exactly the calls the
 * pool answered (restored as its 'sessionLost' events say): nothing is recorded without its verdict
 * returned, and what a lost call leaves out is exactly what the event says.
 */
class SessionOracle {
  private readonly accepted: ToolEvent[] = [];
  private reference: LoopDetector;
  readonly lost: LostSession[] = [];

  constructor(readonly id: string) {
    this.reference = new LoopDetector({}, id);
  }

  /** Applies the 'sessionLost' events received since the last answer. */
  private catchUp(): void {
    for (const e of this.lost.splice(0)) {
      const keep = e.restoredFrom ?? 0;
      expect(keep).toBeLessThanOrEqual(this.accepted.length);
      this.accepted.length = keep;
      this.reference.dispose();
      this.reference = new LoopDetector({}, this.id);
      for (const c of this.accepted) this.reference.check(c);
    }
  }

  /** Checks the pool's answer to `event`. */
  answer(event: ToolEvent, got: unknown): void {
    this.catchUp();
    if (got instanceof SessionLostError) return;
    if (got instanceof Error) {
      expect(got.message).toMatch(/shard \d+/);
      return;
    }
    expect(json(got)).toBe(json(this.reference.check(event)));
    this.accepted.push(event);
  }

  dispose(): void {
    this.reference.dispose();
  }
}

describe('LoopPool under random kill schedules', () => {
  it('should settle every promise, finish close(), and record no call without answering it, whenever workers die (also starting up, several times in a row)', async () => {
    // once `at` calls were answered, the worker of `shard` dies, then `startups` of its replacements die starting up
    const kill = fc.record({ at: fc.nat(60), shard: fc.nat(1), startups: fc.constantFrom(0, 0, 1, 2, 4) });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1, 2),
        fc.constantFrom(0, 1, 3),
        fc.array(stream.map((s) => s.slice(0, 14)), { minLength: 2, maxLength: 6 }),
        fc.array(kill, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(60), { maxLength: 3 }),
        async (workers, snapshotEvery, streams, kills, statsAt) => {
          const prefix = `r${run++}-`;
          const p = new LoopPool({ workers, snapshotEvery });
          const oracles = new Map(streams.map((_, i) => [`${prefix}${i}`, new SessionOracle(`${prefix}${i}`)]));
          p.on('sessionLost', (e: LostSession) => oracles.get(e.sessionId)?.lost.push(e));
          const progress = new Progress(streams.length);
          const sessions = streams.map(async (calls, i) => {
            const o = oracles.get(`${prefix}${i}`) as SessionOracle;
            for (const call of calls) {
              const r = await settles(p.checkBatch([{ ...call, session: o.id }]), 15_000, `a call of ${o.id}`);
              expect(r.error).toBeUndefined();
              o.answer(call, (r.value as unknown[])[0]);
              progress.answer();
            }
            progress.sessionDone();
          });
          const chaos = (async () => {
            const todo = [...kills.map((k) => ({ ...k, kind: 'kill' as const })), ...statsAt.map((at) => ({ at, shard: 0, startups: 0, kind: 'stats' as const }))].sort((a, b) => a.at - b.at);
            for (const k of todo) {
              await progress.reach(k.at);
              if (k.kind === 'stats') {
                const st = await settles(p.stats(), 15_000, 'stats()');
                expect(st.error).toBeUndefined();
                continue;
              }
              expect((await settles(killShard(p, k.shard % workers, k.startups), 15_000, 'the kills')).error).toBeUndefined();
            }
          })();
          await Promise.all([...sessions, chaos]);
          const st = await settles(p.stats(), 15_000, 'stats() at the end');
          expect(st.error).toBeUndefined();
          expect((await settles(p.close(), 15_000, 'close()')).error).toBeUndefined();
          for (const o of oracles.values()) o.dispose();
        },
      ),
      { numRuns: runs(12), endOnFailure: true },
    );
  }, PROPERTY_MS);
});

describe('LoopPool two-phase calls when workers die', () => {
  it('should settle a two-phase batch in flight with SessionLostError in every place, and answer the next ones', async () => {
    const p = new LoopPool({ workers: 1, maxBatch: 100_000 });
    pools.push(p);
    await p.propose('warm', { tool: 'read' }); // the worker is up and idle
    const fleet = scenarioFleet('k-', 4);
    const phased = fleet.ops.map((op) => ({ ...op.call, session: op.session, phase: op.kind as 'propose' | 'record' }));
    const inFlight = p.decideBatch(phased); // one batch, sent at once
    await threadOf(p, 0)?.terminate();
    const a = await settles(inFlight, 10_000, 'the two-phase batch in flight');
    expect(a.error).toBeUndefined();
    expect((a.value as unknown[]).every((v) => v instanceof SessionLostError)).toBe(true);
    const again = await settles(p.decideBatch(phased.slice(0, 200)), 10_000, 'the next two-phase batch');
    expect(again.value?.filter((v) => v instanceof Error)).toEqual([]);
    const one = await settles(p.propose('k-after', { tool: 'read', id: 'x' }), 10_000, 'a single proposal');
    expect(one.value?.action).toBe('allow');
  });

  it('should settle every proposal and record, and carry each session on from a point it went through, whenever workers die', async () => {
    const scenarios = [...LEGITIMATE, ...STUCK];
    const kill = fc.record({ at: fc.nat(80), shard: fc.nat(1), startups: fc.constantFrom(0, 0, 1, 2) });
    let run = 0;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1, 2),
        fc.constantFrom(0, 1, 3),
        fc.array(fc.record({ scenario: fc.nat(scenarios.length - 1), ids: fc.boolean(), from: fc.nat(4) }), { minLength: 2, maxLength: 6 }),
        fc.array(kill, { minLength: 1, maxLength: 3 }),
        async (workers, snapshotEvery, sessions, kills) => {
          const prefix = `t${run++}-`;
          const p = new LoopPool({ workers, snapshotEvery });
          const oracles = new Map(sessions.map((_, i) => [`${prefix}${i}`, new LiveOracle(`${prefix}${i}`)]));
          p.on('sessionLost', (e: LostSession) => oracles.get(e.sessionId)?.lost.push(e));
          const progress = new Progress(sessions.length);
          const ask = async (o: LiveOracle, step: LiveStep): Promise<unknown> => {
            const r = await settles(step.phase === 'propose' ? p.propose(o.id, step.call) : p.record(o.id, step.call), 15_000, `a ${step.phase} of ${o.id}`);
            const got = r.error ?? r.value;
            o.answer(step, got);
            progress.answer();
            return got;
          };
          const driven = sessions.map(async ({ scenario, ids, from }, i) => {
            const o = oracles.get(`${prefix}${i}`) as LiveOracle;
            const calls = (scenarios[scenario] as (typeof scenarios)[number]).calls.slice(from);
            for (const [k, c] of calls.entries()) {
              const call = { tool: c.tool, args: c.args, ...(ids ? { id: `c${k}` } : {}) };
              const got = await ask(o, { phase: 'propose', call });
              // as a host: a call denied, stopped or not answered does not run
              if (got instanceof Error || (got as { action: string }).action === 'deny' || (got as { action: string }).action === 'stop') continue;
              await ask(o, { phase: 'record', call: { ...call, ...(c.error === undefined ? { result: c.result } : { error: c.error }) } });
            }
            progress.sessionDone();
          });
          const chaos = (async () => {
            for (const k of [...kills].sort((a, b) => a.at - b.at)) {
              await progress.reach(k.at);
              expect((await settles(killShard(p, k.shard % workers, k.startups), 15_000, 'the kills')).error).toBeUndefined();
            }
          })();
          await Promise.all([...driven, chaos]);
          expect((await settles(p.stats(), 15_000, 'stats() at the end')).error).toBeUndefined();
          expect((await settles(p.close(), 15_000, 'close()')).error).toBeUndefined();
          for (const o of oracles.values()) {
            compared += o.compared;
            o.dispose();
          }
        },
      ),
      { numRuns: runs(12), endOnFailure: true },
    );
    expect(compared).toBeGreaterThan(100);
  }, PROPERTY_MS);
});
