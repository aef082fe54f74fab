/**
 * A message that is not JSON on a NatsCaller's reply subject (anyone who may publish on the server can send
 * one there) is no answer: the check keeps waiting and takes its worker's real answer. Before, the caller
 * parsed it inside the client's callback, after forgetting the check: the parse threw there, and the check
 * was never answered (it failed at its own timeout).
 */
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

/** The caller's reply prefix (private), where a neighbour would aim. */
const prefixOf = (caller: NatsCaller): string => (caller as unknown as { inbox: { prefix: string } }).inbox.prefix;

describe.skipIf(natsServerBinary === null)('NatsCaller: a message that is not JSON on its reply subject', () => {
  it("should keep the check waiting and take its worker's answer, also after JSON that is not an answer", async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    // a worker makes the streams, then goes: the call is stored and waits for the next worker
    const first = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w1' });
    await until('the first worker to own its partition', () => first.partitions().length === 1);
    await first.stop();
    const caller = await NatsCaller.connect(server.url);
    cleanup.push(() => caller.close());
    const checked = caller.check('s1', [{ id: 'c1', tool: 'bash', args: { command: 'make' } }], 20_000).then(
      (a) => `answered ${a.results.length}`,
      (e: unknown) => `rejected: ${(e as Error).message}`,
    );
    await new Promise((r) => setTimeout(r, 300)); // published and stored
    const neighbour = await connect({ servers: server.url });
    cleanup.push(() => neighbour.close());
    neighbour.publish(`${prefixOf(caller)}.0`, 'not json {');
    // JSON that is not an answer's shape is no answer either (it settled the check, then reading it threw)
    for (const json of ['{}', '[]', 'null', '{"seq":1,"results":[]}', '{"seq":1,"results":[1]}', '{"session":"s1","results":[{"verdict":null}]}']) neighbour.publish(`${prefixOf(caller)}.0`, json);
    await neighbour.flush();
    await new Promise((r) => setTimeout(r, 300));
    const second = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w2' });
    cleanup.push(() => second.stop());
    expect(await checked).toBe('answered 1');
  }, 40_000);
});
