/**
 * hostile43: a worker purges from each partition the calls at or below its consumer's acknowledgement
 * floor (`seq: floor + 1`). While nothing of the partition was acknowledged yet the floor is 0, and the
 * server reads a purge up to sequence 1 as a purge without a bound: every call of the partition was
 * purged, those delivered and not yet checked and those not yet delivered, never checked nor answered
 * (fair.mjs's flood under load: `{"filter":"loopwatch.calls.0.*","seq":1}` purged 4,008 calls, the worker
 * then idle with 2,650 of them unchecked). Real nats-server; the stream's count read, no times.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { CALLS_STREAM, PURGE_SUBJECT } from '../src/serve/nats/subjects.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';
import { until } from './helpers/nats-run.js';

const CALLS = 5;

describe.skipIf(natsServerBinary === null)('a purge while nothing of a partition is acknowledged', () => {
  // nothing acknowledged within the test: snapshots (and so acknowledgements) wait a minute, the timed purge longer
  const f = natsFixture(1, { flushMs: 60_000, purgeEveryMs: 600_000 });

  it('should keep every call of the partition in the stream (none acknowledged, floor 0)', async () => {
    expect(f.worker.partitions()).toHaveLength(1);
    for (let i = 0; i < CALLS; i++) await f.caller.publish('floor-zero', [{ id: `c${i}`, tool: 'bash', args: { command: `ls ${i}` } }]);
    await until('all checked', () => f.worker.stats.messages === CALLS);
    const jsm = await jetstreamManager(f.nc);
    for await (const c of jsm.consumers.list(CALLS_STREAM)) expect(c.ack_floor.stream_seq).toBe(0);
    // a purge asked for (as a caller refused by the full stream asks): answered once it is done
    await f.nc.request(PURGE_SUBJECT, '', { timeout: 10_000 });
    expect((await jsm.streams.info(CALLS_STREAM)).state.messages).toBe(CALLS);
  }, 60_000);
});
