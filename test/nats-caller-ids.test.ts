/**
 * NatsCaller's message ids on a real nats-server: a client started again (a restart) that numbers its calls
 * from the start again has them answered, since each client puts a random id of its own in every message
 * id (before, the stream dropped them as repeats of the last client's within its 2-minute duplicate window,
 * and `check()` waited 10 s to ask "is a worker running?" while one was); and a call id used twice by one
 * client is said to be a repeat at once (DuplicateCallError), not after the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateCallError } from '../src/errors.js';
import { NatsCaller } from '../src/nats.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { until } from './helpers/nats-run.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';

describe.skipIf(natsServerBinary === null)('NatsCaller message ids', () => {
  let server: NatsServer;
  let worker: NatsWorker;
  beforeAll(async () => {
    server = await startNatsServer();
    worker = await NatsWorker.start({ servers: server.url, partitions: 2, leaseMs: 600, workerId: 'w' });
    await until('the worker to own its partitions', () => worker.partitions().length === 2);
  }, 30_000);
  afterAll(async () => {
    try {
      await worker?.stop();
    } finally {
      await server?.stop();
    }
  }, 30_000);

  const call = (id: string) => ({ id, tool: 'bash', args: { command: 'make' } });

  it('should answer a restarted client whose call ids start again, and give each client an id of its own', async () => {
    const first = await NatsCaller.connect(server.url);
    expect((await first.check('restart-1', [call('c1')], 5_000)).results).toEqual([{ id: 'c1', verdict: null }]);
    await first.close();
    const again = await NatsCaller.connect(server.url);
    expect(again.clientId).toMatch(/^[0-9a-f]{12}$/);
    expect(again.clientId).not.toBe(first.clientId);
    // the same session, the same call id: a new call of a new client, answered (the session's second make)
    expect((await again.check('restart-1', [call('c1')], 5_000)).results).toEqual([{ id: 'c1', verdict: null }]);
    expect(again.messageId('restart-1', [call('c1'), call('c2')])).toBe(`${again.clientId}.restart-1.c1..c2.2`);
    await again.close();
  }, 30_000);

  it('should reject a call id used twice by one client at once with a DuplicateCallError, and still deduplicate a retried publish', async () => {
    const caller = await NatsCaller.connect(server.url, { clientId: 'fixed-client' });
    expect((await caller.check('dup-1', [call('c1')], 5_000)).results).toEqual([{ id: 'c1', verdict: null }]);
    // a retried publish is stored once
    expect((await caller.publish('dup-1', [call('c1')])).duplicate).toBe(true);
    const error = await caller.check('dup-1', [call('c1')], 20_000).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateCallError);
    expect(error).toMatchObject({ code: 'ERR_LOOPWATCH_DUPLICATE_CALL', msgId: 'fixed-client.dup-1.c1', message: expect.stringContaining('give each call of a session its own id') });
    // a client given the same id on purpose (a restart meant to deduplicate) meets the repeat too
    const same = await NatsCaller.connect(server.url, { clientId: 'fixed-client' });
    await expect(same.check('dup-1', [call('c1')], 20_000)).rejects.toBeInstanceOf(DuplicateCallError);
    await expect(NatsCaller.connect(server.url, { clientId: 'a b' })).rejects.toThrow('clientId must be 1 to 64 letters, digits, _ or -');
    await same.close();
    await caller.close();
  }, 30_000);
});
