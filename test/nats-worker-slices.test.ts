/**
 * A NATS worker with a backlog (a real nats-server on 127.0.0.1) checks it a slice at a time and lets its
 * event loop run between slices: its heartbeats and lease renewals, and anything else of the process, never
 * wait behind thousands of calls. Calls are published while no worker runs, then a worker starts on them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_SLICE, NatsWorker } from '../src/serve/nats/nats-worker.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { publishAll } from './helpers/nats-run.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe.skipIf(natsServerBinary === null)('a NATS worker with a backlog', () => {
  it('should let the event loop run between slices of its backlog', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    // a first worker makes the streams and buckets, then goes, leaving the calls to wait in the stream
    const options = { servers: server.url, partitions: 1, leaseMs: 600 };
    await (await NatsWorker.start({ ...options, workerId: 'maker' })).stop();
    const total = 3_000;
    const calls = Array.from({ length: total }, (_, i) => ({ session: `s${i % 3}`, call: { tool: 'bash', args: { command: `ls ${i}` }, id: String(i) } }));
    await publishAll(server.url, calls);

    // a turn of the event loop at a time, how many calls the worker had checked since the turn before
    const steps: number[] = [];
    let last = 0;
    let watching = true;
    let worker: NatsWorker | undefined;
    const watch = (): void => {
      const now = worker?.stats.calls ?? 0;
      if (now !== last) steps.push(now - last);
      last = now;
      if (watching) setImmediate(watch);
    };
    setImmediate(watch);
    worker = await NatsWorker.start({ ...options, workerId: 'w' });
    cleanup.push(async () => {
      watching = false;
      await worker?.stop();
    });
    for (let t = 0; t < 600 && worker.stats.calls < total; t++) await new Promise((r) => setTimeout(r, 50));
    watching = false;
    expect(worker.stats.calls).toBe(total);
    // a turn may see the slice begun in its I/O callback and the one after it in its immediates, no more
    expect(steps.reduce((a, b) => Math.max(a, b), 0)).toBeLessThanOrEqual(2 * CHECK_SLICE);
    expect(steps.length).toBeGreaterThanOrEqual(Math.ceil(total / (2 * CHECK_SLICE)));
  }, 60_000);
});
