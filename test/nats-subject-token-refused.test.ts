/**
 * A message published to `loopwatch.in.<token>` with a token that is not one loopwatch makes (`a=zz`:
 * lower-case hex; `=C3=28`: bytes that are not UTF-8) is stored by the calls stream, but names no session.
 * Before, the worker dropped it without a word (no answer, not counted) and a client waiting on its reply
 * subject waited for nothing; now it is answered with an error naming the subject, and counted as invalid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NatsConnection, connect, headers } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { REPLY_HEADER } from '../src/serve/nats/subjects.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';

describe.skipIf(natsServerBinary === null)('a message whose subject names no session', () => {
  let server: NatsServer;
  let worker: NatsWorker;
  let nc: NatsConnection;
  beforeAll(async () => {
    server = await startNatsServer();
    worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w1' });
    nc = await connect({ servers: server.url });
    for (let i = 0; i < 50 && worker.partitions().length < 1; i++) await new Promise((r) => setTimeout(r, 100));
  }, 30_000);
  afterAll(async () => {
    await nc?.close();
    await worker?.stop();
    await server?.stop();
  }, 30_000);

  it.each(['a=zz', '=C3=28'])('should answer %s with an error naming the subject, and count it', async (token) => {
    const inbox = `_INBOX.bad.${token.replaceAll('=', '_')}`;
    const answers: string[] = [];
    const sub = nc.subscribe(inbox, { callback: (_e, m) => void answers.push(m.string()) });
    await nc.flush();
    const invalid = worker.stats.invalid;
    const h = headers();
    h.set(REPLY_HEADER, inbox);
    const ack = await jetstream(nc).publish(`loopwatch.in.${token}`, JSON.stringify({ tool: 'x', id: 'c1' }), { headers: h });
    for (let i = 0; i < 60 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    sub.unsubscribe();
    expect(answers.map((a) => JSON.parse(a) as unknown)).toEqual([
      { session: null, seq: ack.seq, results: [{ error: { code: 'ERR_LOOPWATCH_INVALID_EVENT', field: 'subject', message: expect.stringContaining(`session token "${token}" is not one loopwatch makes`) } }] },
    ]);
    expect(worker.stats.invalid).toBe(invalid + 1);
  }, 30_000);
});
