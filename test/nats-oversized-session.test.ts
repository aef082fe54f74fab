/**
 * A session whose state is over the server's message limit, on a real nats-server with a small
 * `max_payload` (32 KiB, from a configuration file, so that a few calls of args near the 4 KB a call
 * similar args keeps reach it). Before the fix, the
 * worker could not write the session, gave its partition up, took it back and met the same state again:
 * the partition flapped forever, its acknowledgement floor never moved, every call was delivered again and
 * again. Now only that session loses its stored state (reported once, counted), the other sessions of the
 * partition are stored, every call is answered, the partition stays, and its calls are acknowledged.
 * Also: args are capped on the way in as the hooks cap theirs (a session of 100 KB args stays well under
 * the default 1 MiB limit), and an answer over the limit comes back as errors rather than flapping too.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopEngine } from '../src/index.js';
import { MAX_TEXT } from '../src/hooks/hook-payload.js';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { type WorkerEvent, NatsWorker } from '../src/serve/nats/nats-worker.js';
import { decodeStored } from '../src/serve/nats/session-store.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const LIMIT = 32 * 1024;

/** Args whose summary similar args keeps is near its 4 KB budget: 300 short strings (a session of 10 such calls passes LIMIT). */
// ~3.6 KB of args a call (under the hooks' cap): since similar args' smaller summaries (snapshot format 9), 300
// rows reached the limit only at the last call; at 400 the state is over it for several calls in a row
const bulky = (i: number): { rows: string[] } => ({ rows: Array.from({ length: 400 }, (_, j) => `${i}-${j}`) });
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  // every cleanup runs (a server is stopped even when a worker's stop failed), the first failure is raised
  const failed: unknown[] = [];
  for (const c of cleanup.reverse()) await c().catch((e: unknown) => void failed.push(e));
  cleanup = [];
  if (failed.length > 0) throw failed[0];
});

async function setUp(config?: string): Promise<{ server: NatsServer; worker: NatsWorker; caller: NatsCaller; events: WorkerEvent[] }> {
  const server = await startNatsServer(config === undefined ? {} : { config });
  cleanup.push(() => server.stop());
  const events: WorkerEvent[] = [];
  // one partition: every session shares it; snapshots every 2 calls
  const worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 900, snapshotEvery: 2, flushMs: 100, workerId: 'w', onEvent: (e) => void events.push(e) });
  cleanup.push(() => worker.stop());
  await until('the worker to own the partition', () => worker.partitions().length === 1);
  const caller = await NatsCaller.connect(server.url);
  cleanup.push(() => caller.close());
  return { server, worker, caller, events };
}

/** Stored states in the sessions bucket, by key, and the calls consumer's acknowledgement floor against the stream's last sequence. */
async function bucketAndFloor(url: string): Promise<{ stored: Map<string, ReturnType<typeof decodeStored>>; floor: number; last: number }> {
  const nc = await connect({ servers: url });
  const kv = await new Kvm(nc).open('loopwatch-sessions');
  const stored = new Map<string, ReturnType<typeof decodeStored>>();
  for await (const k of await kv.keys()) {
    const e = await kv.get(k);
    if (e !== null && e.operation === 'PUT') stored.set(k, decodeStored(e.value));
  }
  const jsm = await jetstreamManager(nc);
  let floor = 0;
  for await (const c of jsm.consumers.list('LOOPWATCH_CALLS')) floor = Math.max(floor, c.ack_floor.stream_seq);
  const last = (await jsm.streams.info('LOOPWATCH_CALLS')).state.last_seq;
  await nc.close();
  return { stored, floor, last };
}

describe.skipIf(natsServerBinary === null)('a session over the server\'s message limit', () => {
  it('should lose only its own stored state, once reported, while its partition stays, is stored and acknowledged', async () => {
    const { server, worker, caller, events } = await setUp(`max_payload: ${LIMIT}\n`);
    // args whose summaries take near 4 KB each: the session's state passes 32 KiB after about ten calls
    const big = (i: number) => ({ id: `b${i}`, tool: 'write', args: bulky(i) });
    const small = (i: number) => ({ id: `s${i}`, tool: 'read', args: { path: 'notes.md' } });
    const answers: unknown[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push(...(await caller.check('big', [big(i)], 5_000)).results);
      answers.push(...(await caller.check('small', [small(i)], 5_000)).results);
    }
    // every call got a verdict (the small session's repeats found), none an error
    expect(answers.every((r) => typeof r === 'object' && r !== null && 'verdict' in r)).toBe(true);
    expect(answers.filter((r) => (r as { id: string; verdict: unknown }).id.startsWith('s') && (r as { verdict: unknown }).verdict !== null).length).toBeGreaterThan(5);

    // the stored states catch up, the acknowledgement floor reaches the stream's end
    let seen = await bucketAndFloor(server.url);
    for (let t = 0; t < 60 && seen.floor < seen.last; t++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await bucketAndFloor(server.url);
    }
    expect(seen.floor).toBe(seen.last);
    expect(seen.stored.get('s.small')?.calls).toBe(12);
    expect(seen.stored.get('s.small')?.snapshot.byteLength).toBeGreaterThan(0);
    // the big session: a marker of how far it went, no snapshot
    expect(seen.stored.get('s.big')).toMatchObject({ calls: 12, notKept: true });
    expect(seen.stored.get('s.big')?.snapshot.byteLength).toBe(0);

    // no flapping: the partition never lost, nothing delivered twice; the big session reported once
    expect(events.filter((e) => e.type !== 'session-lost')).toEqual([{ type: 'acquired', partition: 0, reason: { why: 'free' } }]);
    expect(worker.stats.duplicates).toBe(0);
    const lost = events.filter((e) => e.type === 'session-lost');
    expect(lost).toEqual([{ type: 'session-lost', partition: 0, sessionId: 'big', problem: expect.stringMatching(/bytes, over the 32768 bytes the server takes in a message \(max_payload\): it is not kept/) }]);
    expect(worker.stats.sessionsLost).toBe(1);
    expect(worker.stats.statesTooLarge).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('should start a session whose state was too large to keep again empty on a new owner, without a second report', async () => {
    const { server, worker, caller } = await setUp(`max_payload: ${LIMIT}\n`);
    for (let i = 0; i < 12; i++) await caller.check('big', [{ id: `b${i}`, tool: 'write', args: bulky(i) }], 5_000);
    await worker.stop(); // releases the partition, writing the marker
    expect(worker.stats.sessionsLost).toBe(1);
    const events: WorkerEvent[] = [];
    const next = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 900, workerId: 'w2', onEvent: (e) => void events.push(e) });
    cleanup.push(() => next.stop());
    await until('the new worker to own the partition', () => next.partitions().length === 1);
    const a = await caller.check('big', [{ id: 'again', tool: 'write', args: bulky(0) }], 5_000);
    expect(a.results).toEqual([{ id: 'again', verdict: null }]);
    expect(events.filter((e) => e.type === 'session-lost')).toEqual([]);
    expect(next.stats.sessionsLost).toBe(0);
  }, 60_000);

  it('should cap args on the way in as the hooks do: 30 calls of 100 KB args keep a session under a fifth of the default 1 MiB limit', async () => {
    const { server, worker, caller } = await setUp();
    const call = (i: number) => ({ id: `c${i}`, tool: 'write', args: { path: `f${i}`, content: `${i}`.padEnd(100_000, 'x') } });
    for (let i = 0; i < 30; i++) await caller.check('wide', [call(i)], 5_000);
    await worker.stop();
    const { stored } = await bucketAndFloor(server.url);
    const wide = stored.get('s.wide');
    expect(wide?.calls).toBe(30);
    expect(wide?.notKept).toBeUndefined();
    // uncapped, the same calls keep no args either, only similar args' summaries (they kept ten calls' args
    // whole, over 1 MB, before the summaries)
    const engine = new LoopEngine({});
    for (let i = 0; i < 30; i++) engine.check('wide', call(i));
    expect(engine.snapshot('wide')?.byteLength).toBeLessThan(200 * 1024);
    engine.close();
    expect(wide?.snapshot.byteLength).toBeLessThan(200 * 1024);
    expect(worker.stats.sessionsLost).toBe(0);
    expect(MAX_TEXT).toBe(16 * 1024);
  }, 60_000);

  it('should answer a message whose answer is over the limit with an error per call, and keep the partition', async () => {
    const { worker, caller, events } = await setUp(`max_payload: ${2 * LIMIT}\n`);
    // 300 repeats of one call: about 300 verdicts of a few hundred bytes each, over 64 KiB
    const calls = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, tool: 'bash', args: { command: 'make test' } }));
    const a = await caller.check('wordy', calls, 5_000);
    expect(a.results).toHaveLength(300);
    expect(a.results[0]).toEqual({ id: 'r0', error: { code: 'ERR_LOOPWATCH_ANSWER_TOO_LARGE', message: expect.stringMatching(/over the server's max_payload \(65536\): publish fewer calls per message; the calls were checked/) } });
    // the calls were checked: the next one repeats them
    const next = await caller.check('wordy', [{ id: 'after', tool: 'bash', args: { command: 'make test' } }], 5_000);
    expect(next.results[0]).toMatchObject({ id: 'after', verdict: { kind: 'exact_repeat' } });
    expect(worker.stats.answersTooLarge).toBe(1);
    expect(events.filter((e) => e.type === 'lost')).toEqual([]);
  }, 60_000);
});
