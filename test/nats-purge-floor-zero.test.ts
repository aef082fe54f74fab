/**
 * hostile43: a worker purges from each partition the calls at or below its consumer's acknowledgement
 * floor (`seq: floor + 1`). While nothing of the partition was acknowledged yet the floor is 0, and the
 * server reads a purge up to sequence 1 as a purge without a bound: every call of the partition was
 * purged, those delivered and not yet checked and those not yet delivered, never checked nor answered
 * (fair.mjs's flood under load: `{"filter":"loopwatch.calls.0.*","seq":1}` purged 4,008 calls, the worker
 * then idle with 2,650 of them unchecked). Real nats-server; the stream's count read, no times.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { CALLS_STREAM, PURGE_SUBJECT } from '../src/serve/nats/subjects.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const CALLS = 5;

describe.skipIf(natsServerBinary === null)('a purge while nothing of a partition is acknowledged', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('should keep every call of the partition in the stream (none acknowledged, floor 0)', async () => {
    // nothing acknowledged within the test: snapshots (and so acknowledgements) wait a minute, the timed purge longer
    const worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w1', flushMs: 60_000, purgeEveryMs: 600_000 });
    const nc = await connect({ servers: server.url });
    const caller = await NatsCaller.connect(server.url);
    try {
      await until('the partition', () => worker.partitions().length === 1);
      for (let i = 0; i < CALLS; i++) await caller.publish('floor-zero', [{ id: `c${i}`, tool: 'bash', args: { command: `ls ${i}` } }]);
      await until('all checked', () => worker.stats.messages === CALLS);
      const jsm = await jetstreamManager(nc);
      for await (const c of jsm.consumers.list(CALLS_STREAM)) expect(c.ack_floor.stream_seq).toBe(0);
      // a purge asked for (as a caller refused by the full stream asks): answered once it is done
      await nc.request(PURGE_SUBJECT, '', { timeout: 10_000 });
      expect((await jsm.streams.info(CALLS_STREAM)).state.messages).toBe(CALLS);
    } finally {
      await caller.close();
      await nc.close();
      await worker.stop();
    }
  }, 60_000);
});
