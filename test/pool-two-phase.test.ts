/**
 * LoopPool two-phase checks (propose before a call runs, record after, decline, decideBatch): the shared
 * live scenarios and a random fleet of interleaved sessions (two-phase calls mixed with plain checks in
 * the same batches) give the decisions of one LoopDetector per session through the engine and the pool
 * with 1, 2 and 4 workers and the calling thread's shard, batches of 1, 61 and 5000; errors, backpressure
 * and snapshots as for checks. (The workers run the built module: `npm test` builds first.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ClosedError, InvalidEventError, LoopDetector, LoopEngine, LoopPool } from '../src/index.js';
import type { LoopPoolOptions, SessionLiveCall } from '../src/index.js';
import { fleetEvents } from '../bench/fleet.js';
import { type Fleet, type FleetOp, randomFleet, scenarioFleet } from './helpers/live-fleet.js';
import { STUCK } from './helpers/live-scenarios.js';
import { json } from './helpers/verdicts.js';

const pools: LoopPool[] = [];
const pool = (o: LoopPoolOptions): LoopPool => {
  const p = new LoopPool(o);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const phased = (op: FleetOp): SessionLiveCall => ({ ...op.call, session: op.session, phase: op.kind as 'propose' | 'record' });

/** The operations in chunks of `batch`, each chunk split into runs of checks and of two-phase calls. */
function runs(ops: readonly FleetOp[], batch: number): FleetOp[][] {
  const out: FleetOp[][] = [];
  for (let at = 0; at < ops.length; at += batch) {
    let run: FleetOp[] = [];
    for (const op of ops.slice(at, at + batch)) {
      if (run.length > 0 && (run[0]?.kind === 'check') !== (op.kind === 'check')) {
        out.push(run);
        run = [];
      }
      run.push(op);
    }
    out.push(run);
  }
  return out;
}

function throughEngine(ops: readonly FleetOp[], batch: number): string[] {
  const en = new LoopEngine();
  const out: string[] = [];
  for (const run of runs(ops, batch)) {
    const got = run[0]?.kind === 'check' ? en.checkBatch(run.map((op) => ({ ...op.call, session: op.session }))) : en.decideBatch(run.map(phased));
    for (const v of got) out.push(json(v));
  }
  en.close();
  return out;
}

/** Every run submitted at once, without waiting (concurrent callers), checks and two-phase calls in the same batches. */
async function throughPool(p: LoopPool, ops: readonly FleetOp[], batch: number): Promise<string[]> {
  const calls = runs(ops, batch).map((run) => (run[0]?.kind === 'check' ? p.checkBatch(run.map((op) => ({ ...op.call, session: op.session }))) : p.decideBatch(run.map(phased))));
  return (await Promise.all(calls)).flat().map(json);
}

/** Index and both sides of the first difference, or null. */
function firstDifference(a: readonly string[], b: readonly string[]): string | null {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `operation ${i}: ${(a[i] as string).slice(0, 300)} / ${(b[i] as string).slice(0, 300)}`;
  return null;
}

/**
 * One pool per way of running it, for every fleet and batch size: after each run the fleet's sessions are
 * ended (and the pool must hold none), so the next run starts them afresh in workers that have run others.
 * A pool a run cost 48 worker starts and as many first compiles of the engine in a new thread (~30 of the
 * file's ~48 CPU-s), for the same decisions.
 */
const WAYS = [[1, false], [2, false], [4, false], [1, true], [0, true]] as const;
const wayPools = new Map<string, LoopPool>();
function wayPool(workers: number, inlineShard: boolean): LoopPool {
  const key = `${workers}/${inlineShard}`;
  let p = wayPools.get(key);
  if (p === undefined) wayPools.set(key, (p = pool({ workers, inlineShard })));
  return p;
}

async function everyWay(fleet: Fleet): Promise<void> {
  for (const batch of [1, 61, 5000]) expect(firstDifference(throughEngine(fleet.ops, batch), fleet.want), `engine, batches of ${batch}`).toBeNull();
  const sessions = [...new Set(fleet.ops.map((op) => op.session))];
  for (const [workers, inlineShard] of WAYS) {
    const p = wayPool(workers, inlineShard);
    for (const batch of [1, 61, 5000]) {
      const way = `pool of ${workers}${inlineShard ? ' and the calling thread' : ''}, batches of ${batch}`;
      expect(firstDifference(await throughPool(p, fleet.ops, batch), fleet.want), way).toBeNull();
      await Promise.all(sessions.map((id) => p.end(id)));
      expect((await p.stats()).live, `${way}: sessions left live`).toBe(0);
    }
  }
}

const decisions = (f: Fleet, action: string): number => f.want.filter((w) => w.includes(`"action":"${action}"`)).length;

describe('the same two-phase decisions whatever runs them', () => {
  it('should agree with a LoopDetector per session on the shared live scenarios (with and without ids), interleaved', async () => {
    const fleet = scenarioFleet('live-', 3);
    expect(decisions(fleet, 'deny')).toBeGreaterThan(0);
    expect(decisions(fleet, 'stop')).toBeGreaterThan(0);
    await everyWay(fleet);
  }, 120_000);

  it('should agree on a random fleet of interleaved sessions, two-phase calls among plain checks in the same batches, calls in parallel', async () => {
    // 240 sessions: 5,363 operations (378 checks, 67 warnings, 19 denials), more than one batch of every size
    // tried; 400 took ~10 s more of CI for nothing more
    const fleet = randomFleet(fleetEvents(240, 12));
    expect(fleet.ops.filter((o) => o.kind === 'check').length).toBeGreaterThan(300);
    expect(decisions(fleet, 'warn')).toBeGreaterThan(50);
    expect(decisions(fleet, 'deny')).toBeGreaterThan(0);
    await everyWay(fleet);
  }, 180_000);
});

describe('LoopPool two-phase calls', () => {
  it('should answer propose, record and decline one by one as LoopEngine does, on workers and in the calling thread', async () => {
    for (const o of [{ workers: 2 }, { workers: 0, inlineShard: true }] satisfies LoopPoolOptions[]) {
      const p = pool(o);
      const ref = new LoopEngine();
      const call = { tool: 'bash', args: { command: 'make' } };
      for (let i = 0; i < 5; i++) {
        const a = await p.propose('d', { ...call, id: `m${i}` });
        expect(json(a)).toBe(json(ref.propose('d', { ...call, id: `m${i}` })));
        if (a.action === 'deny' || a.action === 'stop') continue;
        const rec = { ...call, id: `m${i}`, error: 'make: *** [all] Error 2' };
        expect(json(await p.record('d', rec))).toBe(json(ref.record('d', rec)));
      }
      // a declined call counts as blocked: proposed again, it is blocked as the engine blocks it
      const other = { tool: 'deploy', args: { env: 'prod' } };
      await p.propose('e', { ...other, id: 'x' });
      ref.propose('e', { ...other, id: 'x' });
      await p.decline('e', { ...other, id: 'x' });
      ref.decline('e', { ...other, id: 'x' });
      expect(json(await p.propose('e', { ...other, id: 'y' }))).toBe(json(ref.propose('e', { ...other, id: 'y' })));
      expect(json(await p.snapshot('e'))).toBe(json(ref.snapshot('e')));
      ref.close();
    }
  });

  it('should put the error of a bad call in its place, as LoopEngine.decideBatch does, and reject a bad single call', async () => {
    const bad: unknown[] = [
      { session: 3, phase: 'propose', tool: 'a' },
      { session: 's', phase: 'before', tool: 'a' },
      { session: 's', phase: 'propose', tool: '' },
      { session: 's', phase: 'record', tool: 'a', id: 7 },
      { session: 's', phase: 'propose', tool: 'a', args: { f: () => 1 } },
      null,
      { session: 's', phase: 'propose', tool: 'a', id: 'ok' },
    ];
    const strict = new LoopEngine({ strictValues: true });
    const want = strict.decideBatch(bad as SessionLiveCall[]).map(json);
    strict.close();
    for (const o of [{ workers: 1 }, { workers: 0, inlineShard: true }] satisfies LoopPoolOptions[]) {
      const p = pool(o);
      const got = await p.decideBatch(bad as SessionLiveCall[]);
      expect(got.map(json)).toEqual(want);
      expect(got[4]).toBeInstanceOf(InvalidEventError);
      await expect(p.propose(5 as never, { tool: 'a' })).rejects.toThrow(/sessionId must be a non-empty string/);
      await expect(p.record('s', { tool: 'a', id: '' })).rejects.toMatchObject({ field: 'id' });
      await expect(p.decideBatch('no' as never)).rejects.toBeInstanceOf(InvalidEventError);
    }
  });

  it('should count two-phase calls against maxQueued, waiting instead of holding more', async () => {
    const p = pool({ workers: 2, maxQueued: 10, maxBatch: 4 });
    const fleet = scenarioFleet('q-', 1, 3);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, p.pending)), 0);
    const got = await throughPool(p, fleet.ops, 25);
    clearInterval(watch);
    expect(most).toBeLessThanOrEqual(10);
    expect(got).toEqual(fleet.want);
  });

  it('should carry waiting proposals and blocked calls in snapshots, to a LoopDetector and back', async () => {
    const p = pool({ workers: 1 });
    const d = new LoopDetector({}, 'snap');
    const call = { tool: 'bash', args: { command: 'pytest -q' } };
    for (let i = 0; i < 6; i++) {
      const c = { ...call, id: `p${i}` };
      const a = await p.propose('snap', c);
      expect(json(a)).toBe(json(d.propose(c)));
      if (a.action === 'allow' || a.action === 'warn') {
        const r = { ...c, error: 'exit 1: 3 failed' };
        expect(json(await p.record('snap', r))).toBe(json(d.record(r)));
      }
    }
    await p.propose('snap', { tool: 'read', args: { path: 'x' }, id: 'waiting' });
    d.propose({ tool: 'read', args: { path: 'x' }, id: 'waiting' });
    const bytes = (await p.snapshot('snap')) as Uint8Array;
    const back = new LoopDetector({}, 'snap');
    back.restore(bytes);
    const rec = { tool: 'read', args: { path: 'x' }, id: 'waiting', result: 'text' };
    expect(json(back.record(rec))).toBe(json(d.record(rec)));
    const other = new LoopDetector({}, 'other');
    other.restore(d.snapshot());
    await p.restore('other', d.snapshot());
    expect(json(await p.propose('other', { ...call, id: 'again' }))).toBe(json(other.propose({ ...call, id: 'again' })));
    for (const x of [d, back, other]) x.dispose();
  });

  it('should restore waiting proposals exactly when a worker dies between a proposal and its record (args that travelled encoded)', async () => {
    const p = pool({ workers: 1, snapshotEvery: 1 });
    const lost: unknown[] = [];
    p.on('sessionLost', (e) => lost.push(e));
    for (const s of STUCK) {
      const d = new LoopDetector({}, `w-${s.name}`);
      for (const [i, c] of s.calls.entries()) {
        const call = { tool: c.tool, args: c.args }; // no ids: the next proposal records a waiting one without outcome
        const a = await p.propose(`w-${s.name}`, call);
        expect(json(a)).toBe(json(d.propose(call)));
        if (i % 3 === 1) await p.shardsForTesting[0]?.threads[0]?.terminate(); // the proposal waits in the snapshot only
        if (a.action === 'deny' || a.action === 'stop' || i % 3 === 1) continue; // its outcome never comes: recorded without one at the next proposal
        const rec = { ...call, ...(c.error === undefined ? { result: c.result } : { error: c.error }) };
        expect(json(await p.record(`w-${s.name}`, rec))).toBe(json(d.record(rec)));
      }
      d.dispose();
    }
    expect(lost).toEqual([]);
    expect((await p.stats()).workerRestarts).toBeGreaterThan(5);
  });

  it('should refuse two-phase calls once closed', async () => {
    const p = new LoopPool({ workers: 1 });
    const pending = p.propose('c', { tool: 'read' });
    const closed = p.close();
    await expect(p.propose('c', { tool: 'read' })).rejects.toBeInstanceOf(ClosedError);
    await expect(p.decideBatch([])).rejects.toBeInstanceOf(ClosedError);
    expect((await pending).action).toBe('allow');
    await closed;
  });
});
