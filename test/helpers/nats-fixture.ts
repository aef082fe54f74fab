/**
 * One nats-server, one NatsWorker owning every partition, a NatsCaller and a plain connection, started
 * before a file's tests and stopped after them: the setup the NATS tests that publish by hand share.
 */
import { afterAll, beforeAll } from 'vitest';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { NatsCaller } from '../../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../../src/serve/nats/nats-worker.js';
import { type NatsServer, startNatsServer } from './nats-server.js';

/** What {@link natsFixture} started: read it inside tests (it is set once `beforeAll` has run). */
export interface NatsFixture {
  server: NatsServer;
  worker: NatsWorker;
  caller: NatsCaller;
  nc: NatsConnection;
}

/**
 * Registers `beforeAll`/`afterAll` (call it inside a describe) that start a server, a worker with
 * `partitions` partitions (lease 600 ms, flushed every 50 ms) and wait until it owns them all.
 */
export function natsFixture(partitions: number): NatsFixture {
  const f = {} as NatsFixture;
  beforeAll(async () => {
    f.server = await startNatsServer();
    f.worker = await NatsWorker.start({ servers: f.server.url, partitions, leaseMs: 600, workerId: 'w1', flushMs: 50 });
    f.caller = await NatsCaller.connect(f.server.url);
    f.nc = await connect({ servers: f.server.url });
    for (let i = 0; i < 50 && f.worker.partitions().length < partitions; i++) await new Promise((r) => setTimeout(r, 100));
  }, 30_000);
  afterAll(async () => {
    await f.nc?.close();
    await f.caller?.close();
    await f.worker?.stop();
    await f.server?.stop();
  }, 30_000);
  return f;
}
