/**
 * Determinism: the real agent traces (skipped when `../shared` is absent) and a synthetic fleet of 1,000
 * sessions give identical verdicts, call by call, through one LoopDetector per session, the LoopEngine in
 * several batch sizes, and the LoopPool with 1, 2 and 4 workers (and 1 worker beside a shard in the calling
 * thread) in several batch sizes. The fleet's 10,000 calls (137 verdicts) come session by session in turn,
 * so every batch holds calls of hundreds of sessions; its pool batches (61 and 1,250 calls: 8 of the
 * larger, each over the pool's default maxBatch of 1,024, so a shard splits it) are all in flight at once
 * and spread over every worker. That is what 4,000 sessions in batches of 5,000 gave (40,000 calls, 8
 * batches) at ~4x the work for nothing more (citime10); 10,000 sessions took ~60 s of CI before that.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LoopEngine, LoopPool } from '../src/index.js';
import type { SessionEvent, Verdict } from '../src/index.js';
import { fleetEvents } from '../bench/fleet.js';
import { traceCalls, traceDir } from './helpers/traces.js';
import { json, perSession } from './helpers/verdicts.js';

function engine(events: readonly SessionEvent[], batch: number): string[] {
  const en = new LoopEngine();
  const out: string[] = [];
  for (let at = 0; at < events.length; at += batch) for (const v of en.checkBatch(events.slice(at, at + batch))) out.push(json(v));
  en.close();
  return out;
}

async function pool(p: LoopPool, events: readonly SessionEvent[], batch: number): Promise<string[]> {
  const calls: Promise<(Verdict | null | Error)[]>[] = [];
  for (let at = 0; at < events.length; at += batch) calls.push(p.checkBatch(events.slice(at, at + batch)));
  return (await Promise.all(calls)).flat().map(json);
}

/** Index and both sides of the first difference, or null. */
function firstDifference(a: readonly string[], b: readonly string[]): string | null {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `call ${i}: ${(a[i] as string).slice(0, 300)} / ${(b[i] as string).slice(0, 300)}`;
  return null;
}

/**
 * One pool per way of running it, for the fleet and the traces and both batch sizes: after each run its
 * sessions are ended (and the pool must hold none), so the next run starts them afresh in workers that have
 * run others. A pool a run cost 16 worker starts and as many first compiles of the engine in a new thread.
 */
const WAYS = [[1, false], [2, false], [4, false], [1, true]] as const;
const wayPools = new Map<string, LoopPool>();
function wayPool(workers: number, inlineShard: boolean): LoopPool {
  const key = `${workers}/${inlineShard}`;
  let p = wayPools.get(key);
  if (p === undefined) wayPools.set(key, (p = new LoopPool({ workers, inlineShard })));
  return p;
}
afterAll(async () => {
  await Promise.all([...wayPools.values()].map((p) => p.close()));
}, 60_000);

/** Batch sizes of the pool runs: the traces' (28,505 calls) and the fleet's (10,000 calls: 8 batches of the larger). */
const TRACE_BATCHES = [61, 5000] as const;
const FLEET_BATCHES = [61, 1250] as const;

async function everyWay(events: readonly SessionEvent[], poolBatches: readonly number[]): Promise<{ verdicts: number }> {
  const want = perSession(events);
  for (const batch of [1, 97, 4096]) expect(firstDifference(engine(events, batch), want), `engine, batches of ${batch}`).toBeNull();
  const sessions = [...new Set(events.map((e) => e.session))];
  for (const [workers, inlineShard] of WAYS) {
    const p = wayPool(workers, inlineShard);
    for (const batch of poolBatches) {
      const way = `pool of ${workers}${inlineShard ? ' and the calling thread' : ''}, batches of ${batch}`;
      expect(firstDifference(await pool(p, events, batch), want), way).toBeNull();
      await Promise.all(sessions.map((id) => p.end(id)));
      expect((await p.stats()).live, `${way}: sessions left live`).toBe(0);
    }
  }
  return { verdicts: want.filter((v) => v !== 'null').length };
}

describe('the same verdicts whatever runs them', () => {
  it('should agree on a synthetic fleet of 1,000 sessions (10 calls each, 1 in 8 looping)', async () => {
    const events = fleetEvents(1_000, 10);
    const { verdicts } = await everyWay(events, FLEET_BATCHES);
    // 137 under the shipped default (4,000 sessions gave 528, and 1,000 under hand-tuned: its two-call cycles are flagged a turn later, at a weight of 0.8)
    expect(verdicts).toBeGreaterThan(110);
  }, 180_000);

  it.skipIf(traceDir === null)('should agree on every call of the real traces', async () => {
    const events = traceCalls().map(([session, e]): SessionEvent => ({ ...e, session }));
    const { verdicts } = await everyWay(events, TRACE_BATCHES);
    expect(verdicts).toBeGreaterThan(500);
  }, 300_000);
});
