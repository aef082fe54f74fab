/**
 * A NATS worker that loses its partition while a check waits for a session's stored state, and gets the
 * partition back before that check goes on (real nats-server, the worker in this process). The lease is
 * taken away and handed back by the test at chosen moments, and the worker's load of one session from the
 * bucket is held until then (its store's `load`, wrapped: the one internal hook here), so the interleaving
 * the full suite's load once produced by chance (test/nats-stalled-workers: a verdict whose session had
 * two calls missing) happens every run:
 *
 * - calls delivered before the loss, still queued, must not be checked after the partition is back: the
 *   new ownership delivers again from the acknowledgement floor, and an old delivery checked first puts a
 *   session's later call on a state that lacks the calls in between (which then pass as repeats);
 * - a session state read before the loss must not be kept: another owner may have taken the session
 *   further meanwhile, and the new ownership starts after what that owner acknowledged.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopEngine } from '../src/index.js';
import type { SessionEvent } from '../src/index.js';
import { CheckService } from '../src/serve/check-service.js';
import { readCallMessage } from '../src/serve/nats/call-message.js';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { takeOverConsumer } from '../src/serve/nats/nats-setup.js';
import { DEFAULT_LAYOUT, NatsWorker, type WorkerEvent } from '../src/serve/nats/nats-worker.js';
import { type LoadedSession, SessionStore } from '../src/serve/nats/session-store.js';
import { CALLS_STREAM, OWNERS_BUCKET, SESSIONS_BUCKET, leaseKey } from '../src/serve/nats/subjects.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { VerdictCollector, until } from './helpers/nats-run.js';
import { perSession } from './helpers/verdicts.js';

const LAYOUT = { ...DEFAULT_LAYOUT, partitions: 1 };
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  const failed: unknown[] = [];
  for (const c of cleanup.reverse()) await c().catch((e: unknown) => void failed.push(e));
  cleanup = [];
  if (failed.length > 0) throw failed[0];
});

/** A call of a session, with its id. */
type Call = SessionEvent & { readonly id: string };

/** The same call again and again: every verdict after the first ones says how many came before. */
const call = (session: string, i: number): Call => ({ session, id: `${session}-${i}`, tool: 'bash', args: { command: 'make test' }, result: 'FAILED 1 test' });

/** Holds the worker's next load of `sessionId` (before or after it reads the bucket) until `open()`. */
function holdLoad(worker: NatsWorker, sessionId: string, when: 'before-read' | 'after-read'): { reached: Promise<void>; open: () => void } {
  const store = (worker as unknown as { book: { store: SessionStore } }).book.store;
  const load = store.load.bind(store);
  let reached!: () => void;
  let open!: () => void;
  const atGate = new Promise<void>((r) => (reached = r));
  const gate = new Promise<void>((r) => (open = r));
  store.load = async (id: string): Promise<LoadedSession> => {
    if (id !== sessionId) return load(id);
    store.load = load; // once
    if (when === 'before-read') {
      reached();
      await gate;
      return load(id);
    }
    const got = await load(id);
    reached();
    await gate;
    return got;
  };
  return { reached: atGate, open };
}

interface Setup {
  server: NatsServer;
  worker: NatsWorker;
  events: WorkerEvent[];
  caller: NatsCaller;
  collector: VerdictCollector;
  nc: NatsConnection;
  /** Publishes a call; resolves to its stream sequence. */
  publish: (c: Call) => Promise<number>;
  /** The acknowledgement floor of the partition's consumer now. */
  floor: () => Promise<number>;
  /** Stream sequences the partition's consumer has delivered. */
  delivered: () => Promise<number>;
  /** Times the worker acquired / lost the partition. */
  count: (type: WorkerEvent['type']) => number;
}

async function setUp(): Promise<Setup> {
  const server = await startNatsServer();
  cleanup.push(() => server.stop());
  const events: WorkerEvent[] = [];
  // one partition; a session's state written every 5 calls and not for age (flushMs): a session's stored
  // state stays where the test expects it
  const worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 3_000, snapshotEvery: 5, flushMs: 600_000, workerId: 'a', onEvent: (e) => void events.push(e) });
  cleanup.push(() => worker.stop());
  await until('the worker to own the partition', () => worker.partitions().length === 1);
  const caller = await NatsCaller.connect(server.url);
  cleanup.push(() => caller.close());
  const collector = await VerdictCollector.start(server.url);
  cleanup.push(() => collector.close());
  const nc = await connect({ servers: server.url });
  cleanup.push(() => nc.close());
  const jsm = await jetstreamManager(nc);
  const consumer = async () => {
    for await (const c of jsm.consumers.list(CALLS_STREAM)) return c;
    throw new Error('no consumer');
  };
  return {
    server,
    worker,
    events,
    caller,
    collector,
    nc,
    publish: async ({ session, ...c }) => (await caller.publish(session, [c])).seq,
    floor: async () => (await consumer()).ack_floor.stream_seq,
    delivered: async () => (await consumer()).delivered.stream_seq,
    count: (type) => events.filter((e) => e.type === type).length,
  };
}

/** Every answer the worker published (repeats included) against one LoopDetector per session. */
function expectUninterrupted(calls: readonly Call[], collector: VerdictCollector): void {
  const want = perSession(calls.map(({ id: _, ...e }) => e));
  for (const [i, c] of calls.entries()) for (const got of collector.byId.get(c.id) ?? []) expect(got, c.id).toBe(want[i]);
}

describe.skipIf(natsServerBinary === null)('a NATS worker that loses its partition while a check waits, and gets it back', () => {
  it('should not check a call it was delivered before the loss once the partition is back: the new delivery comes in order', async () => {
    const t = await setUp();
    const owners = await new Kvm(t.nc).open(OWNERS_BUCKET);
    const s = Array.from({ length: 10 }, (_, i) => call('s', i));
    const other = call('t', 0);
    // s-0..s-6 checked; s-0..s-4 stored (every 5 calls) and acknowledged, s-5 and s-6 held in memory
    // (s-0..s-4 first, acknowledged before s-5 and s-6 go out: published together, a loaded worker could take
    // all seven in one delivery and store them at once, and then nothing was held in memory)
    let fifth = 0;
    for (const c of s.slice(0, 5)) fifth = await t.publish(c);
    await until('s-0..s-4 acknowledged', async () => (await t.floor()) === fifth);
    for (const c of s.slice(5, 7)) await t.publish(c);
    await until('s-0..s-6 answered', () => t.collector.byId.size === 7);
    expect(await t.floor()).toBe(fifth);
    // a check waits for t's state; meanwhile s-7 is delivered (queued behind it)
    const held = holdLoad(t.worker, 't', 'before-read');
    await t.publish(other);
    await held.reached;
    const seq7 = await t.publish(s[7] as Call);
    await until('s-7 delivered', async () => (await t.delivered()) >= seq7);
    // the lease is taken (the worker drops the partition and s's state in memory), then handed back
    await owners.put(leaseKey(0), 'thief');
    await until('the partition lost', () => t.count('lost') === 1);
    await owners.delete(leaseKey(0));
    await until('the partition back', () => t.count('acquired') === 2);
    held.open();
    for (const c of s.slice(8)) await t.publish(c);
    const calls = [...s, other];
    await t.collector.waitFor(calls.length, 20_000);
    expectUninterrupted(calls, t.collector);
  }, 60_000);

  it('should not keep a session state it read before the loss: another owner took the session further meanwhile', async () => {
    const t = await setUp();
    const owners = await new Kvm(t.nc).open(OWNERS_BUCKET);
    const calls = Array.from({ length: 5 }, (_, i) => call('u', i));
    // the worker reads u's state (none yet) for u-0, and waits
    const held = holdLoad(t.worker, 'u', 'after-read');
    await t.publish(calls[0] as Call);
    await held.reached;
    // another owner takes the partition over, checks u-0..u-2, stores u's state and acknowledges them
    const epoch = await owners.put(leaseKey(0), 'thief');
    const fresh = setInterval(() => void owners.put(leaseKey(0), 'thief').catch(() => undefined), 300);
    try {
      await until('the partition lost', () => t.count('lost') === 1);
      const name = await takeOverConsumer(await jetstreamManager(t.nc), 0, epoch, LAYOUT);
      let upto = 0;
      for (const c of calls.slice(1, 3)) upto = await t.publish(c);
      const service = new CheckService(new LoopEngine({ idleTtlMs: 0 }));
      const store = new SessionStore(await new Kvm(t.nc).open(SESSIONS_BUCKET));
      const batch = await (await jetstream(t.nc).consumers.get(CALLS_STREAM, name)).fetch({ max_messages: 3, expires: 5_000 });
      const taken = [];
      for await (const m of batch) {
        const msg = readCallMessage('u', m.data, undefined);
        if (msg.kind === 'calls') service.checkBatch(msg.calls);
        taken.push(m);
      }
      expect(taken.map((m) => m.seq).at(-1)).toBe(upto);
      await store.save('u', 0, { lastSeq: upto, calls: 3, ended: false, snapshot: service.engine.snapshot('u') as Uint8Array });
      for (const m of taken) await m.ackAck();
      service.engine.close();
    } finally {
      clearInterval(fresh);
    }
    // the partition is handed back: the worker's new consumer starts after u-2
    await owners.delete(leaseKey(0));
    await until('the partition back', () => t.count('acquired') === 2);
    for (const c of calls.slice(3)) await t.publish(c);
    held.open();
    await until('u-3 and u-4 answered', () => t.collector.byId.has('u-3') && t.collector.byId.has('u-4'), 20_000);
    expectUninterrupted(calls, t.collector);
  }, 60_000);
});
