/**
 * hostile32: the sessions bucket (each session's stored state) had a one-day TTL and no byte bound, so a
 * flood of distinct sessions filled the server's disk for a day. It is now bounded (`sessionsMaxBytes`,
 * `--sessions-max-bytes`, discard new). When it is full the worker neither crashes nor loses a partition
 * nor a session's state unsaid: every call is answered, a session whose state is not stored is reported
 * once (session-lost) and its key holds no older state a next owner would start from, the fill is said
 * once (sessions-full), and the sessions the bucket held before the flood are still stored (new sessions
 * stop at 7/8 of the bound). Real nats-server; sizes and answers, no times.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { type WorkerEvent, NatsWorker } from '../src/serve/nats/nats-worker.js';
import { decodeStored } from '../src/serve/nats/session-store.js';
import { SESSIONS_BUCKET, sessionKey } from '../src/serve/nats/subjects.js';
import { natsCallerFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const BOUND = 1 << 20;

/** A call whose args make a state of several KB (a distinct text per session and call). */
const big = (i: number, j: number): { id: string; tool: string; args: { path: string; text: string } } => ({ id: `c${j}`, tool: 'write', args: { path: `/f${i}`, text: `${i}-${j}-`.padEnd(16_000, 'x') } });

describe.skipIf(natsServerBinary === null)('the NATS sessions bucket bounded in bytes', () => {
  const f = natsCallerFixture();

  it('should answer every call of a flood of new sessions, report each one not stored once, keep the sessions stored before, and stay within the bound', async () => {
    // a first worker makes the bucket with the default bound; the next, told a smaller one, sets it
    const first = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'w0' });
    await first.stop();
    const events: WorkerEvent[] = [];
    const worker = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'w1', flushMs: 50, snapshotEvery: 1, sessionsMaxBytes: BOUND, onEvent: (e) => void events.push(e) });
    const nc = await connect({ servers: f.server.url });
    try {
      const jsm = await jetstreamManager(nc);
      const kv = await new Kvm(nc).open(SESSIONS_BUCKET);
      const bucket = async (): Promise<{ bytes: number; maxBytes: number }> => {
        const si = await jsm.streams.info(`KV_${SESSIONS_BUCKET}`);
        return { bytes: si.state.bytes, maxBytes: si.config.max_bytes };
      };
      expect((await bucket()).maxBytes).toBe(BOUND);
      await until('the partition', () => worker.partitions().length === 1);

      // two sessions stored before the flood
      for (const id of ['keep-a', 'keep-b']) await f.caller.check(id, [big(-1, 0)], 30_000);
      await until('the kept sessions stored', async () => (await kv.get(sessionKey('keep-a'))) !== null && (await kv.get(sessionKey('keep-b'))) !== null);

      // a flood of new sessions, each a 16 KB call, until the bucket has refused several: every call answered
      let flooded = 0;
      for (; flooded < 600 && worker.stats.statesNotStored < 40; flooded += 20) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => f.caller.check(`flood-${flooded + k}`, [big(flooded + k, 0)], 30_000)));
        for (const a of answers) expect(a.results.map((r) => 'verdict' in r)).toEqual([true]);
      }
      expect(worker.stats.statesNotStored).toBeGreaterThanOrEqual(40);
      expect((await bucket()).bytes).toBeLessThanOrEqual(BOUND);

      // the sessions stored before are still live and still written: their third identical call is a repeat,
      // and their stored state follows their calls
      for (const id of ['keep-a', 'keep-b']) {
        const answer = await f.caller.check(id, [big(-1, 0), big(-1, 0)].map((c, j) => ({ ...c, id: `again${j}` })), 30_000);
        expect(answer.results.map((r) => ('verdict' in r ? (r.verdict?.kind ?? null) : 'error'))).toEqual([null, 'exact_repeat']);
        await until(`${id}'s stored state to hold its new calls`, async () => {
          const e = await kv.get(sessionKey(id));
          return e !== null && e.operation === 'PUT' && decodeStored(e.value).lastSeq >= answer.seq;
        });
      }

      // each session not stored reported once, the fill said once, no partition lost, nothing left unacknowledged
      const lost = events.filter((e) => e.type === 'session-lost').map((e) => (e as { sessionId: string }).sessionId);
      expect(lost.length).toBeGreaterThanOrEqual(40);
      expect(new Set(lost).size).toBe(lost.length);
      expect(lost.every((id) => id.startsWith('flood-'))).toBe(true);
      expect(worker.stats.sessionsLost).toBe(lost.length);
      expect(events.filter((e) => e.type === 'sessions-full')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'lost')).toEqual([]);
      for (const id of lost.slice(0, 10)) {
        const e = await kv.get(sessionKey(id));
        expect(e === null || e.operation !== 'PUT').toBe(true);
      }
      await until('every call acknowledged', async () => {
        for await (const c of jsm.consumers.list('LOOPWATCH_CALLS')) if (c.num_ack_pending > 0 || c.num_pending > 0) return false;
        return true;
      });
      expect((await bucket()).bytes).toBeLessThanOrEqual(BOUND);
    } finally {
      await nc.close();
      await worker.stop();
    }
  }, 180_000);
});
