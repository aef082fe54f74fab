/**
 * The setups the NATS tests share, each started before a file's tests and stopped after them (one
 * nats-server a file): {@link natsCallerFixture}, a server and a NatsCaller, for files that start their own
 * workers; {@link natsFixture}, those and a NatsWorker owning every partition and a plain connection, for
 * files that publish by hand or ask one worker.
 */
import { afterAll, beforeAll } from 'vitest';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { NatsCaller } from '../../src/serve/nats/nats-caller.js';
import { NatsWorker, type NatsWorkerOptions } from '../../src/serve/nats/nats-worker.js';
import { type NatsServer, startNatsServer } from './nats-server.js';

/** What {@link natsCallerFixture} started: read it inside tests (it is set once `beforeAll` has run). */
export interface NatsCallerFixture {
  server: NatsServer;
  caller: NatsCaller;
}

/** What {@link natsFixture} started: read it inside tests (it is set once `beforeAll` has run). */
export interface NatsFixture extends NatsCallerFixture {
  worker: NatsWorker;
  nc: NatsConnection;
}

/** Registers `beforeAll`/`afterAll` (call it inside a describe) that start a server and a NatsCaller on it. */
export function natsCallerFixture(): NatsCallerFixture {
  const f = {} as NatsCallerFixture;
  beforeAll(async () => {
    f.server = await startNatsServer();
    f.caller = await NatsCaller.connect(f.server.url);
  }, 30_000);
  afterAll(async () => {
    await f.caller?.close();
    await f.server?.stop();
  }, 30_000);
  return f;
}

/**
 * Registers `beforeAll`/`afterAll` (call it inside a describe) that start a server, a worker with
 * `partitions` partitions (lease 600 ms, flushed every 50 ms, id w1; `worker` changes or adds options), a
 * NatsCaller and a plain connection, and wait until the worker owns every partition.
 */
export function natsFixture(partitions: number, worker: Partial<NatsWorkerOptions> = {}): NatsFixture {
  const f = natsCallerFixture() as NatsFixture;
  beforeAll(async () => {
    f.worker = await NatsWorker.start({ servers: f.server.url, partitions, leaseMs: 600, workerId: 'w1', flushMs: 50, ...worker });
    f.nc = await connect({ servers: f.server.url });
    for (let i = 0; i < 50 && f.worker.partitions().length < partitions; i++) await new Promise((r) => setTimeout(r, 100));
  }, 30_000);
  // runs before natsCallerFixture's (vitest runs afterAll hooks last registered first)
  afterAll(async () => {
    await f.nc?.close();
    await f.worker?.stop();
  }, 30_000);
  return f;
}
