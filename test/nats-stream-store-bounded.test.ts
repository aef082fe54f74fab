/**
 * hostile31: the NATS calls stream had a one-day max_age and no max_bytes, so a flood of calls grew the
 * server's store for a day (538 MB after 60,000 calls of 2 KB). Each stream is now bounded (`maxBytes`,
 * `--stream-max-bytes`): the calls stream refuses a call past it (discard new), and the caller's publish
 * fails with a StoreFullError (nothing stored is dropped unchecked); the workers purge the calls they have
 * checked, so the store holds the calls not yet checked and takes calls again once they are. A stream
 * made before the bound (by a worker without it) is given it. Real nats-server; sizes and answers, no times.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/errors.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { natsCallerFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const BOUND = 1 << 20;

describe.skipIf(natsServerBinary === null)('the NATS streams bounded in bytes', () => {
  const f = natsCallerFixture();

  it('should refuse calls past the bound with a StoreFullError, check every call it stored, and take calls again once they are purged', async () => {
    // a first worker makes the streams with the default bound; a second one, told a smaller one, sets it
    const first = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'w0' });
    await first.stop();
    const nc = await connect({ servers: f.server.url });
    const jsm = await jetstreamManager(nc);
    try {
      const setter = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'w1', maxBytes: BOUND });
      await setter.stop();
      for (const name of ['LOOPWATCH_CALLS', 'LOOPWATCH_VERDICTS']) {
        const { config } = await jsm.streams.info(name);
        expect(config.max_bytes, name).toBe(BOUND);
        expect(config.discard, name).toBe(name === 'LOOPWATCH_CALLS' ? 'new' : 'old');
      }

      // no worker runs: 100 calls of 16 KB, about 1.6 MB against 1 MiB
      let stored = 0;
      const refused: unknown[] = [];
      for (let i = 0; i < 100; i++) {
        const call = { id: `c${i}`, tool: 'write', args: { path: `/f${i}`, text: `${i}-`.padEnd(16_000, 'x') } };
        try {
          await f.caller.publish(`flood-${i % 10}`, [call]);
          stored++;
        } catch (e) {
          refused.push(e);
        }
      }
      expect(stored).toBeGreaterThan(30);
      expect(refused.length).toBeGreaterThan(20);
      expect(stored + refused.length).toBe(100);
      for (const e of refused) {
        expect((e as { code?: unknown }).code).toBe(ErrorCode.STORE_FULL);
        expect((e as Error).message).toMatch(/calls stream on this NATS server is full.*send it again later/);
      }
      const full = await jsm.streams.info('LOOPWATCH_CALLS');
      expect(full.state.bytes).toBeLessThanOrEqual(BOUND);
      expect(full.state.messages).toBe(stored);

      // a worker checks every stored call, then purges them: the store takes calls again
      const worker = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'w2', maxBytes: BOUND, flushMs: 50, purgeEveryMs: 50 });
      try {
        await until('the stored calls to be checked', () => worker.stats.calls === stored);
        await until('the checked calls to be purged', async () => (await jsm.streams.info('LOOPWATCH_CALLS')).state.messages === 0);
        // a purged call published again within the duplicate window is still dropped as a repeat
        const again = await f.caller.publish('flood-0', [{ id: 'c0', tool: 'write', args: { path: '/f0', text: '0-'.padEnd(16_000, 'x') } }]);
        expect(again.duplicate).toBe(true);
        const answer = await f.caller.check('after', [{ id: 'a1', tool: 'bash', args: { command: 'ls' } }], 30_000);
        expect(answer.results.map((r) => 'verdict' in r)).toEqual([true]);
        expect(worker.stats.calls).toBe(stored + 1);
      } finally {
        await worker.stop();
      }
    } finally {
      await nc.close();
    }
  }, 120_000);
});
