/**
 * mend13: a worker whose watch of the lease bucket goes deaf, on a real nats-server. The watch is an
 * ordered consumer; when the server drops it (deleted here, as an operator's clean-up or an expired
 * ephemeral consumer does) it delivers nothing more and says nothing. Before, the worker then took every
 * other worker for dead: a second worker started beside it was never seen, so the first kept both
 * partitions and the second got none (and a dead worker's partitions could never be taken over, claimed at
 * the last revision seen). Now a worker that does not hear its own heartbeat for a lease watches again.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

describe.skipIf(natsServerBinary === null)('a NATS worker whose lease watch the server dropped', () => {
  it('should watch again and share the partitions with a worker started after', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    cleanup.push(async () => void process.off('warning', onWarning));
    const a = await NatsWorker.start({ servers: server.url, partitions: 2, leaseMs: 600, workerId: 'a' });
    cleanup.push(() => a.stop());
    await until('worker a to own both partitions', () => a.partitions().length === 2, 20_000);

    // the server drops a's watch (its only consumer on the lease bucket's stream)
    const nc = await connect({ servers: server.url });
    cleanup.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const dropped: string[] = [];
    for await (const c of jsm.consumers.list('KV_loopwatch-owners')) dropped.push(c.name);
    for (const name of dropped) await jsm.consumers.delete('KV_loopwatch-owners', name);
    expect(dropped).toHaveLength(1);

    const b = await NatsWorker.start({ servers: server.url, partitions: 2, leaseMs: 600, workerId: 'b' });
    cleanup.push(() => b.stop());
    await until('each worker to own one partition', () => a.partitions().length === 1 && b.partitions().length === 1, 20_000);
    expect([...a.partitions(), ...b.partitions()].sort()).toEqual([0, 1]);
    expect(warnings.some((w) => w.includes('the watch of the leases heard nothing for 0.6 s'))).toBe(true);
  }, 60_000);
});
