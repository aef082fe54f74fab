/**
 * hostile32: the calls stream is bounded (`maxBytes`, discard new) and a worker purged what it had checked
 * every 5 s, so a burst of calls larger than the bound within one turn was refused (StoreFullError)
 * although every call of it before the refusal was checked. A worker now purges at once once the calls it
 * acknowledged since its last purge take 1/8 of the bound, and a caller whose call the stream refuses asks
 * the workers to purge (loopwatch.control.purge), then publishes once more: only calls not yet checked count
 * against the bound. Real nats-server; answers and sizes, no times (the timed purge never runs here).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const BOUND = 1 << 20;
/** 200 calls of 16 KB: about three times the bound. */
const CALLS = 200;
const call = (i: number): { id: string; tool: string; args: { path: string; text: string } } => ({ id: `c${i}`, tool: 'write', args: { path: `/f${i}`, text: `${i}-`.padEnd(16_000, 'x') } });

describe.skipIf(natsServerBinary === null)('a burst over the calls stream\'s bound, checked as it comes', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  for (const how of ['the worker purging once it acknowledged 1/8 of the bound', 'the caller asking for a purge when refused'] as const) {
    it(`should store and answer every call of a burst three times the bound, ${how}`, async () => {
      const byCaller = how.startsWith('the caller');
      // the timed purge never runs within the test; by the caller, the worker purges only when asked
      const worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: byCaller ? 'w2' : 'w1', maxBytes: BOUND, flushMs: 20, snapshotEvery: 1, purgeEveryMs: 600_000, ...(byCaller ? { purgeAtBytes: Number.POSITIVE_INFINITY } : {}) });
      const nc = await connect({ servers: server.url });
      const caller = await NatsCaller.connect(server.url);
      try {
        await until('the partition', () => worker.partitions().length === 1);
        const session = byCaller ? 'burst-caller' : 'burst-worker';
        let asked = 0;
        nc.subscribe('loopwatch.control.purge', { callback: () => void asked++ });
        await nc.flush();
        const seen: boolean[] = [];
        if (byCaller) {
          for (let i = 0; i < CALLS; i++) seen.push((await caller.check(session, [call(i)], 30_000)).results.every((r) => 'verdict' in r));
        } else {
          // a plain JetStream client (no retry of its own): ten calls at a time, each ten once the last are checked
          const js = jetstream(nc);
          for (let i = 0; i < CALLS; i += 10) {
            for (let j = i; j < i + 10; j++) await js.publish(`loopwatch.in.${session}`, JSON.stringify(call(j)), { msgID: `${session}-${j}` });
            await until(`calls to ${i + 9} checked`, () => worker.stats.calls === i + 10);
            for (let j = i; j < i + 10; j++) seen.push(true);
          }
        }
        expect(seen.filter(Boolean)).toHaveLength(CALLS);
        expect(worker.stats.calls).toBe(CALLS);
        // by the caller, the stream did refuse (and the caller asked); by the worker, no caller had to
        if (byCaller) expect(asked).toBeGreaterThan(0);
        else expect(asked).toBe(0);
        const info = await (await jetstreamManager(nc)).streams.info('LOOPWATCH_CALLS');
        expect(info.state.bytes).toBeLessThanOrEqual(BOUND);
      } finally {
        await caller.close();
        await nc.close();
        await worker.stop();
      }
    }, 180_000);
  }
});
