/**
 * Fault injection, LoopPool: a worker that hangs (its thread held, as by a detector stuck in a loop)
 * rather than dies. The watchdog (`batchDeadlineMs`) ends it once the batch it runs goes unanswered past
 * the deadline, and the pool recovers as for a worker that died: the calls it held get a
 * SessionLostError, its sessions come back from their snapshots or are reported by 'sessionLost', and
 * later calls get the verdicts of a detector fed exactly the calls answered. A worker merely slow, or a
 * calling thread that held its own event loop past the deadline, is not ended.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LoopDetector, LoopPool, SessionLostError } from '../../src/index.js';
import type { LostSession, SessionEvent, Verdict } from '../../src/index.js';
import { BATCH_DEADLINE_MS, WORKER_BOOT_DEADLINE_MS } from '../../src/pool/batch-watchdog.js';
import { json } from '../helpers/verdicts.js';
import { settles } from './settle.js';

const pools: LoopPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => settles(p.close(), 20_000, 'close()')));
});

const HOLD_FOREVER = 2 ** 31;

/** The same read, `n` times, in session `s`: a loop the detectors see. */
const reads = (s: string, n: number, from = 0): SessionEvent[] => Array.from({ length: n }, (_, i) => ({ session: s, tool: 'read', args: { path: `/a/${(from + i) % 2}` }, result: 'same' }));

function pool(batchDeadlineMs: number, snapshotEvery = 1): { p: LoopPool; lost: LostSession[]; restarts: string[] } {
  const p = new LoopPool({ workers: 1, batchDeadlineMs, snapshotEvery });
  pools.push(p);
  const lost: LostSession[] = [];
  const restarts: string[] = [];
  p.on('sessionLost', (s: LostSession) => lost.push(s));
  p.on('workerRestart', (r: { reason: string }) => restarts.push(r.reason));
  return { p, lost, restarts };
}

describe('LoopPool when a worker hangs', () => {
  it('should end a worker that holds its batch past the deadline, fail its calls with SessionLostError and go on from the snapshots', async () => {
    const { p, lost, restarts } = pool(1_500);
    const before = reads('a', 3);
    await p.checkBatch(before); // snapshots after each call
    p.shardsForTesting[0]?.hangForTesting(HOLD_FOREVER);
    const started = Date.now();
    const held = await settles(p.checkBatch([...reads('a', 2, 3), ...reads('b', 1)]), 15_000, 'the calls of the hung worker');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    const out = held.value as (Verdict | Error | null)[];
    expect(out.every((v) => v instanceof SessionLostError)).toBe(true);
    expect(String(out[0])).toContain('answered no batch within 1500 ms');
    expect(restarts).toEqual([expect.stringContaining('a hung worker')]);
    expect(lost.map((l) => [l.sessionId, l.restoredFrom])).toEqual([
      ['a', 3],
      ['b', null],
    ]);
    // session a goes on from its 3 calls, exactly as a detector fed those 3 calls and the next ones
    const next = reads('a', 6, 3);
    const after = await settles(p.checkBatch(next), 15_000, 'the calls after recovery');
    const reference = new LoopDetector({}, 'a');
    const expected = [...before, ...next].map((e) => json(reference.check(e))).slice(before.length);
    reference.dispose();
    expect((after.value as unknown[]).map(json)).toEqual(expected);
    expect(expected.some((v) => v !== 'null')).toBe(true);
    const stats = await settles(p.stats(), 15_000, 'stats()');
    expect(stats.value?.workerRestarts).toBe(1);
  });

  it('should end a replacement worker that hangs while it restores its sessions, and start another', async () => {
    // long enough for a replacement's boot on a loaded machine: the start's clock includes it
    const { p, lost, restarts } = pool(3_000);
    await p.checkBatch(reads('a', 3));
    const shard = p.shardsForTesting[0];
    shard?.hangForTesting(HOLD_FOREVER, true); // the next start spins
    shard?.hangForTesting(HOLD_FOREVER); // this worker spins now
    const held = await settles(p.checkBatch(reads('a', 1, 3)), 15_000, 'the calls of the hung worker');
    expect(held.value?.[0]).toBeInstanceOf(SessionLostError);
    const after = await settles(p.checkBatch(reads('a', 1, 4)), 15_000, 'a call after two hung workers');
    expect(after.value?.[0]).not.toBeInstanceOf(Error);
    expect(restarts).toHaveLength(1);
    expect(lost.map((l) => l.restoredFrom)).toEqual([3]);
  });

  it('should not end a worker slower than usual but answering within the deadline', async () => {
    const { p, restarts } = pool(3_000);
    await p.checkBatch(reads('a', 1));
    p.shardsForTesting[0]?.hangForTesting(500);
    const out = await settles(p.checkBatch(reads('a', 2, 1)), 15_000, 'calls behind a slow worker');
    expect((out.value as unknown[]).some((v) => v instanceof Error)).toBe(false);
    expect(restarts).toEqual([]);
  });

  it('should not end a healthy worker while the calling thread holds its own event loop past the deadline', async () => {
    // a deadline of 1.5 s, the hold 4 s past it: at 500 ms a worker starved by a loaded machine (load 15,
    // s16's full run) itself answered no start in time, and was rightly ended
    const { p, restarts } = pool(1_500);
    await p.checkBatch(reads('a', 1));
    const pending = p.checkBatch(reads('a', 3, 1)); // sent in this turn's microtasks
    // held in the check phase: the next turn runs its expired timers before it reads the answer that came meanwhile
    await new Promise<void>((done) =>
      setImmediate(() => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4_000); // held asleep, not spinning
        done();
      }),
    );
    const out = await settles(pending, 15_000, 'calls of a healthy worker');
    expect((out.value as unknown[]).some((v) => v instanceof Error)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(restarts).toEqual([]);
  });

  it("should not hold a worker's boot (a start restoring nothing) to a deadline shorter than WORKER_BOOT_DEADLINE_MS", async () => {
    // before: at load 18 a pool with a deadline of 100 or 200 ms ended every boot ("answered no start within
    // 100 ms"), and its attempts spent, broke the shard: every call failed. A boot runs nothing of the user's.
    // (a batch deadline of 400 ms, not 100: s31's fresh-clone CI at load 10-25 lost 'b' here twice, not
    // reproduced alone beside four busy loops; suspected: the first batch a fresh worker checks after its
    // boot is held to that deadline. 400 ms is still well below the 1 s boot this case makes)
    const { p, restarts } = pool(400, 0);
    const first = await settles(p.checkBatch(reads('a', 1)), 30_000, 'the first call of a pool with a 400 ms deadline');
    expect(first.value?.[0]).not.toBeInstanceOf(Error);
    expect(restarts).toEqual([]);
    // a replacement's boot made 1 s long (its sessions have no snapshot: nothing to restore) is waited for
    const shard = p.shardsForTesting[0];
    shard?.hangForTesting(1_000, true);
    await shard?.threads[0]?.terminate();
    const t = Date.now();
    const after = await settles(p.checkBatch(reads('b', 1)), 30_000, 'a call after a slow boot');
    expect(after.value?.[0]).not.toBeInstanceOf(Error);
    // answered by the worker that booted for 1 s (the bound is below: longer under load is fine), not by one
    // started again after the slow one was ended at 400 ms
    expect(Date.now() - t).toBeGreaterThanOrEqual(950);
    expect(restarts).toEqual([expect.stringContaining('exited')]);
    expect(restarts.join()).not.toContain('answered no start');
  });

  it('should take batchDeadlineMs 0 (no deadline) or 100 ms and more, and default to BATCH_DEADLINE_MS', () => {
    expect(() => new LoopPool({ workers: 1, batchDeadlineMs: 50 })).toThrow(/batchDeadlineMs must be 0 \(no deadline\) or at least 100 ms, received 50/);
    expect(() => new LoopPool({ workers: 1, batchDeadlineMs: -1 })).toThrow(/batchDeadlineMs/);
    const p = new LoopPool({ workers: 1 });
    pools.push(p);
    expect(p.options.batchDeadlineMs).toBe(BATCH_DEADLINE_MS);
    expect(BATCH_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
    expect(WORKER_BOOT_DEADLINE_MS).toBeGreaterThanOrEqual(60_000);
  });
});
