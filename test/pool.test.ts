/**
 * LoopPool: sessions sharded over worker threads give exactly the verdicts of one LoopDetector per
 * session, whatever the worker count, batch sizes and interleaving of concurrent callers; the queue is
 * bounded; a worker that dies is replaced, its sessions restored from snapshots or reported lost.
 * (The workers run the built module: `npm test` builds first.)
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ClosedError, InvalidEventError, LoopDetector, LoopPool, SessionLostError } from '../src/index.js';
import type { LostSession, SessionEvent, ToolEvent, Verdict } from '../src/index.js';
import { runs, stream } from './helpers/streams.js';
import { json, perSession } from './helpers/verdicts.js';

/** Interleaves per-session streams into one list of events, sessions named with `prefix`. */
function interleave(prefix: string, streams: readonly (readonly ToolEvent[])[], order: readonly number[]): SessionEvent[] {
  const next = streams.map(() => 0);
  const out: SessionEvent[] = [];
  for (const o of [...order, ...streams.flatMap((s, i) => s.map(() => i))]) {
    const s = o % streams.length;
    const i = next[s] as number;
    if (i >= (streams[s] as ToolEvent[]).length) continue;
    next[s] = i + 1;
    out.push({ ...(streams[s] as ToolEvent[])[i], session: `${prefix}-${s}` } as SessionEvent);
  }
  return out;
}

/** Submits `events` in chunks without waiting between them (concurrent callers), results in order. */
async function concurrently(pool: LoopPool, events: readonly SessionEvent[], sizes: readonly number[]): Promise<string[]> {
  const calls: Promise<(Verdict | null | Error)[]>[] = [];
  let at = 0;
  for (let k = 0; at < events.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length] as number);
    calls.push(pool.checkBatch(events.slice(at, at + n)));
    at += n;
  }
  return (await Promise.all(calls)).flat().map(json);
}

const pools: LoopPool[] = [];
const pool = (o: ConstructorParameters<typeof LoopPool>[0]): LoopPool => {
  const p = new LoopPool(o);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('LoopPool verdicts', () => {
  it('should give every session its LoopDetector verdicts with 1, 2 and 3 workers, with a shard in the calling thread, any batching, concurrent callers', async () => {
    const shapes = [
      pool({ workers: 1 }),
      pool({ workers: 2, maxBatch: 5 }),
      pool({ workers: 3, maxQueued: 16, maxBatch: 4 }),
      pool({ workers: 1, inlineShard: true, maxBatch: 3 }),
      pool({ workers: 0, inlineShard: true, maxQueued: 7 }),
    ];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 120 }), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 4 }), async (streams, order, sizes) => {
        const events = interleave(`r${run++}`, streams, order);
        const want = perSession(events);
        for (const p of shapes) expect(await concurrently(p, events, sizes)).toEqual(want);
      }),
      { numRuns: runs(40) },
    );
  });

  it('should send values JSON cannot hold as the caller passed them (Map, BigInt, Date, NaN, -0)', async () => {
    const p = pool({ workers: 2 });
    const events: SessionEvent[] = [];
    for (let i = 0; i < 12; i++) {
      events.push({ session: 'exotic', tool: 'query', args: { filter: new Map([['k', i % 2]]), big: 10n ** 20n, when: new Date(i % 2), x: i % 2 === 0 ? NaN : -0 }, result: new Set([i % 3]) });
      events.push({ session: 'plain', tool: 'query', args: { nested: { list: [1, 2, { deep: 'x' }], n: i % 2 } }, result: { rows: [] } });
    }
    expect((await p.checkBatch(events)).map(json)).toEqual(perSession(events));
  });

  it('should give the same verdicts and previews whether args travel encoded or as a tree (ignored fields, per-tool rules, exotic values, similar args)', async () => {
    // args encoded in this thread for the workers' module only when the encoding gives them back exactly;
    // ignored fields (everywhere, or for one tool) and values JSON cannot hold go the other way
    const options = { ignoreFields: ['ts'], tools: { edit: { ignoreFields: ['nonce'] } } };
    const p = pool({ workers: 2, ...options });
    const events: SessionEvent[] = [];
    for (let i = 0; i < 14; i++) {
      events.push({ session: 'enc', tool: 'search', args: { q: `handler ${i % 2}`, page: 1, opts: { exact: true, list: [1, 'é', null] } }, result: 'No results found.' });
      events.push({ session: 'ts', tool: 'read', args: { path: 'src/a.ts', ts: i }, result: `body ${i % 2}` });
      events.push({ session: 'tool', tool: 'edit', args: { path: 'src/a.ts', nonce: `n${i}`, text: 'x'.repeat(300 + (i % 3)) }, result: 'ok' });
      events.push({ session: 'odd', tool: 'query', args: { when: new Date(0), n: 5n, s: 'a\ud800b', u: undefined }, result: 'same' });
    }
    const want = perSession(events, options);
    expect(want.filter((v) => v !== 'null').length).toBeGreaterThan(10);
    expect((await p.checkBatch(events)).map(json)).toEqual(want);
  });

  it.each([
    ['2 workers', { workers: 2 }],
    ['the calling thread only', { workers: 0, inlineShard: true }],
  ])('should put an error in the place of a call that is invalid or cannot be sent, and check the others (%s)', async (_name, options) => {
    const p = pool(options);
    const call = { tool: 'read', args: { path: 'a' } };
    const out = await p.checkBatch([
      { ...call, session: 'a' },
      { ...call } as SessionEvent,
      { session: 'a', tool: 42 } as unknown as SessionEvent,
      { session: 'a', tool: 'read', args: { callback: () => 1 } },
      { ...call, session: 'a' },
      { ...call, session: 'a' },
    ]);
    expect((out[1] as Error).message).toMatch(/events\[1\]\.session must be a non-empty string/);
    expect(out[2]).toBeInstanceOf(InvalidEventError);
    expect(out[3]).toBeInstanceOf(InvalidEventError);
    expect((out[3] as Error).message).toMatch(/events\[3\]: event.args: it cannot be sent to a worker thread/);
    expect((out[5] as Verdict).kind).toBe('exact_repeat');
  });

  it.each([
    ['2 workers', { workers: 2 }],
    ['a worker and the calling thread', { workers: 1, inlineShard: true }],
  ])('should keep text, end, snapshot and restore in order with the calls (%s)', async (_name, options) => {
    const p = pool(options);
    const loop: SessionEvent = { session: 'x', tool: 'search', args: { q: 'handler' }, result: 'No results found.' };
    await p.checkBatch([loop, loop]);
    const bytes = (await p.snapshot('x')) as Uint8Array;
    const third = await p.check('x', loop);
    await p.end('x');
    expect(await p.snapshot('x')).toBeNull();
    await p.restore('moved', bytes);
    expect(json(await p.check('moved', { ...loop }))).toBe(json(third).replaceAll('"x"', '"moved"'));
    await expect(p.restore('bad', bytes.subarray(0, 9))).rejects.toThrow(/snapshot/);
    const chant = 'I will now fix the failing test.\n'.repeat(12);
    const local = new LoopDetector({}, 't');
    const want = local.checkText(chant);
    local.dispose();
    expect(want).not.toBeNull();
    expect(json(await p.checkText('t', chant))).toBe(json(want));
  });
});

describe('LoopPool queue and lifecycle', () => {
  it('should never hold more than maxQueued calls, waiting instead', async () => {
    const p = pool({ workers: 2, maxQueued: 10, maxBatch: 4 });
    const events: SessionEvent[] = Array.from({ length: 400 }, (_, i) => ({ session: `q${i % 7}`, tool: 'read', args: { path: `f${i % 5}` } }));
    let most = 0;
    const calls = [p.checkBatch(events.slice(0, 150)), p.checkBatch(events.slice(150, 151)), p.checkBatch(events.slice(151))];
    const watch = setInterval(() => (most = Math.max(most, p.pending)), 0);
    most = Math.max(most, p.pending);
    const got = (await Promise.all(calls)).flat().map(json);
    clearInterval(watch);
    expect(most).toBeLessThanOrEqual(10);
    expect(got).toEqual(perSession(events));
  });

  it('should drain on close and refuse calls afterwards', async () => {
    const p = new LoopPool({ workers: 2 });
    const pending = p.checkBatch(Array.from({ length: 300 }, (_, i) => ({ session: `c${i % 9}`, tool: 'read', args: { path: 'f' } })));
    const closed = p.close();
    await expect(p.checkBatch([])).rejects.toBeInstanceOf(ClosedError);
    expect((await pending).filter((v) => v instanceof Error)).toEqual([]);
    await closed;
    await expect(p.stats()).rejects.toThrow(/closed/);
  });

  it('should refuse options that cannot cross to a worker, naming them', () => {
    expect(() => new LoopPool({ onDetection: () => undefined } as never)).toThrow(/options.onDetection cannot be given to a LoopPool/);
    expect(() => new LoopPool({ tools: { bash: { identity: (a: unknown) => a } } })).toThrow(/options.tools.bash.identity is a function/);
    expect(() => new LoopPool({ policy: { onDetect: () => undefined } })).toThrow(/options.policy.onDetect is a function/);
    expect(() => new LoopPool({ workres: 2 } as never)).toThrow(/did you mean "workers"/);
    expect(() => new LoopPool({ workers: 0 })).toThrow(/options.workers must be an integer from 1/);
    expect(() => new LoopPool({ inlineShard: 'yes' } as never)).toThrow(/options.inlineShard must be a boolean/);
    expect(() => new LoopPool({ detectors: { cycle: { minPeriod: 1 } } })).toThrow(/options.detectors.cycle.minPeriod/);
  });
});

describe('LoopPool worker death', () => {
  const fleet = (prefix: string, sessions: number, calls: number): SessionEvent[] => {
    const out: SessionEvent[] = [];
    for (let c = 0; c < calls; c++) for (let s = 0; s < sessions; s++) out.push({ session: `${prefix}${s}`, tool: c % 3 === 0 ? 'search' : 'read', args: { q: `item ${(c * (s + 1)) % 4}` }, result: c % 5 === 0 ? 'No results found.' : `row ${c % 4}` });
    return out;
  };
  const kill = async (p: LoopPool, shard: number): Promise<void> => {
    const t = p.shardsForTesting[shard]?.threads[0];
    await t?.terminate();
  };

  it('should restore every session exactly from its snapshots when a worker dies between batches', async () => {
    const p = pool({ workers: 2, snapshotEvery: 1 });
    const lost: LostSession[] = [];
    p.on('sessionLost', (s: LostSession) => lost.push(s));
    const events = fleet('k', 12, 16);
    const half = events.length / 2;
    const first = (await p.checkBatch(events.slice(0, half))).map(json);
    await kill(p, 0);
    const second = (await p.checkBatch(events.slice(half))).map(json);
    expect([...first, ...second]).toEqual(perSession(events));
    expect(lost).toEqual([]);
    const st = await p.stats();
    expect(st.workerRestarts).toBe(1);
    expect(st.sessionsRestored).toBeGreaterThan(0);
    expect(st.sessionsLost).toBe(0);
  });

  it('should report the sessions of a dead worker as lost when it had no snapshots, and go on', async () => {
    const p = pool({ workers: 2 });
    const lost: LostSession[] = [];
    p.on('sessionLost', (s: LostSession) => lost.push(s));
    const events = fleet('n', 10, 6);
    await p.checkBatch(events);
    await kill(p, 1);
    const after = await p.checkBatch(fleet('n', 10, 2));
    expect(after.filter((v) => v instanceof Error)).toEqual([]);
    const onShard = new Set(events.map((e) => e.session).filter((s) => p.shardOf(s) === 1));
    expect(new Set(lost.map((s) => s.sessionId))).toEqual(onShard);
    expect(lost.every((s) => s.restoredFrom === null && s.shard === 1)).toBe(true);
    expect((await p.stats()).sessionsLost).toBe(onShard.size);
  });

  it('should fail the calls that were in flight on a dying worker with SessionLostError, and only those', async () => {
    const p = pool({ workers: 1, maxBatch: 100_000 });
    const lost: LostSession[] = [];
    p.on('sessionLost', (s: LostSession) => lost.push(s));
    const events = fleet('f', 50, 200);
    await p.checkBatch(fleet('warm', 1, 1)); // the worker is up and idle
    const pending = p.checkBatch(events); // sent to the worker at once
    await kill(p, 0);
    const out = await pending;
    const errors = out.filter((v): v is SessionLostError => v instanceof SessionLostError);
    expect(errors.length).toBe(out.length); // one batch, all of it in flight
    expect(errors[0]?.message).toMatch(/was lost with its worker/);
    expect(lost.length).toBeGreaterThan(0);
    const again = await p.checkBatch(fleet('f', 50, 1));
    expect(again.filter((v) => v instanceof Error)).toEqual([]);
  });
});
