/**
 * hostile36: anyone who may publish on loopwatch.control.purge can ask a worker to purge, and each request
 * cost a purge turn (a consumer info and a purge per partition held: one running, one waiting at any
 * time), so a flood of requests kept the server and the worker busy. Now a request that finds nothing
 * acknowledged since the last purge is counted and answered at once, and the others share one purge per
 * PURGE_ASKED_EVERY_MS. Real nats-server: the JetStream API requests the worker makes are heard on their
 * subjects (any client of the account hears them), counted while requests flood in (in waves of 20, each once the last is answered).
 */
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker, PURGE_ASKED_EVERY_MS } from '../src/serve/nats/nats-worker.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const PARTITIONS = 2;
const REQUESTS = 2_000;

describe.skipIf(natsServerBinary === null)('purge requests cost a worker nothing past its own purges', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('should answer a flood of purge requests with one purge when nothing was checked, and one per interval while calls are', async () => {
    // the timed purge never runs within the test
    const worker = await NatsWorker.start({ servers: server.url, partitions: PARTITIONS, leaseMs: 2_000, workerId: 'w1', flushMs: 20, snapshotEvery: 1, purgeEveryMs: 600_000, purgeAtBytes: Number.POSITIVE_INFINITY });
    const nc = await connect({ servers: server.url });
    const caller = await NatsCaller.connect(server.url);
    try {
      await until('the partitions', () => worker.partitions().length === PARTITIONS);
      let infos = 0;
      let purges = 0;
      nc.subscribe('$JS.API.CONSUMER.INFO.LOOPWATCH_CALLS.>', { callback: () => void infos++ });
      nc.subscribe('$JS.API.STREAM.PURGE.LOOPWATCH_CALLS', { callback: () => void purges++ });
      await nc.flush();
      // requests in waves of 20, each once the last is answered: a purge turn per wave before
      const flood = async (): Promise<number> => {
        let answered = 0;
        for (let i = 0; i < REQUESTS; i += 20) {
          const wave = Array.from({ length: 20 }, () => nc.request('loopwatch.control.purge', '', { timeout: 20_000 }).then(() => 1, () => 0));
          for (const k of await Promise.all(wave)) answered += k;
        }
        return answered;
      };

      // nothing checked: the partitions just taken owe one purge turn, then nothing is acted on
      expect(await flood()).toBe(REQUESTS);
      await nc.flush();
      expect(infos, `consumer infos for ${REQUESTS} requests, nothing checked`).toBeLessThanOrEqual(PARTITIONS);
      expect(worker.stats.purgeRequests).toBe(REQUESTS);
      // those heard before the owed turn began share it; the rest find nothing to purge
      expect(worker.stats.purgeRequestsIdle).toBeGreaterThan(0);

      // calls checked while requests flood in: a purge turn per PURGE_ASKED_EVERY_MS at most, and the checked calls go
      infos = 0;
      const t0 = performance.now();
      const checking = (async () => {
        for (let i = 0; i < 40; i++) await caller.check(`s${i % 4}`, [{ id: `c${i}`, tool: 'bash', args: { command: `make step-${i}` } }], 30_000);
      })();
      let answered = 0;
      answered += await flood();
      await checking;
      const turns = Math.ceil((performance.now() - t0) / PURGE_ASKED_EVERY_MS) + 2;
      await nc.flush();
      expect(answered).toBe(REQUESTS);
      expect(infos, `consumer infos for ${REQUESTS} requests while 40 calls were checked`).toBeLessThanOrEqual(turns * PARTITIONS);
      // and a request still purges what was checked
      await until('the checked calls acknowledged', async () => {
        const jsm = await jetstreamManager(nc);
        const names = (await jsm.consumers.list('LOOPWATCH_CALLS').next()).map((c) => c.name);
        const floors = await Promise.all(names.map(async (n) => (await jsm.consumers.info('LOOPWATCH_CALLS', n)).num_ack_pending));
        return floors.every((k) => k === 0);
      });
      await nc.request('loopwatch.control.purge', '', { timeout: 20_000 });
      const jsm = await jetstreamManager(nc);
      expect((await jsm.streams.info('LOOPWATCH_CALLS')).state.messages).toBe(0);
      expect(purges).toBeGreaterThan(0);
    } finally {
      await caller.close();
      await nc.close();
      await worker.stop();
    }
  }, 180_000);
});
