/**
 * mend13: `NatsCaller.close()` when its server is gone, on a real nats-server. Before, close() drained the
 * connection without a bound: with the server killed it rejected ("connection disconnected") after ~2 s
 * and left the client reconnecting for ~20 s more (holding its process open); with the server frozen (a
 * partition: SIGSTOP) it was still waiting after 30 s. Now it resolves within CLOSE_DRAIN_MS and a little,
 * the connection closed; and a check still waiting rejects at close, not at its own timeout.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_DRAIN_MS, NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

/** The caller's connection (private), to see that close() closed it. */
const connectionOf = (caller: NatsCaller): NatsConnection => (caller as unknown as { nc: NatsConnection }).nc;

/** How close() ends within `ms`: `closed` (resolved) or its rejection, or `pending`; and in how many ms. */
async function closing(caller: NatsCaller, ms: number): Promise<{ outcome: string; ms: number }> {
  const t0 = performance.now();
  const outcome = await Promise.race([caller.close().then(() => 'closed', (e: unknown) => `rejected: ${(e as Error).message}`), new Promise<string>((r) => setTimeout(() => r('pending'), ms))]);
  return { outcome, ms: performance.now() - t0 };
}

describe.skipIf(natsServerBinary === null)('NatsCaller.close() without its server', () => {
  // killed: the client sees the socket close and reconnects; frozen (SIGSTOP): the socket stays, nothing answers
  it.each([
    ['was killed', 'SIGKILL'],
    ['does not answer (frozen)', 'SIGSTOP'],
  ] as const)('should close within its bound when the server %s, the connection closed (not left reconnecting)', async (_, signal) => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    const caller = await NatsCaller.connect(server.url);
    server.process.kill(signal);
    if (signal === 'SIGSTOP') cleanup.push(async () => void server.process.kill('SIGCONT'));
    await new Promise((r) => setTimeout(r, 300));
    const { outcome, ms } = await closing(caller, 15_000);
    expect(outcome).toBe('closed');
    expect(ms).toBeLessThan(CLOSE_DRAIN_MS + 2_000);
    expect(connectionOf(caller).isClosed()).toBe(true);
  }, 30_000);

  it('should reject a check still waiting for its answer at close, not at its own timeout', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    // a worker makes the streams, then goes: the call is stored and nobody answers it
    const worker = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w' });
    await until('the worker to own its partition', () => worker.partitions().length === 1);
    await worker.stop();
    const caller = await NatsCaller.connect(server.url);
    const t0 = performance.now();
    const waiting = caller.check('s1', [{ id: 'c1', tool: 'bash', args: { command: 'make' } }], 20_000).then(() => 'answered', (e: unknown) => (e as Error).message);
    await new Promise((r) => setTimeout(r, 500)); // published and stored
    await caller.close();
    expect(await waiting).toBe('loopwatch: the NatsCaller was closed before the answer came');
    expect(performance.now() - t0).toBeLessThan(10_000);
  }, 30_000);
});
