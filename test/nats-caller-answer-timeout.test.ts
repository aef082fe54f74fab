/**
 * newuser29: what a NatsCaller's client sees when no worker answers in time, on a real nats-server (the
 * stream's storing is the point). Before, `check()`, `propose()` and `record()` rejected with a plain Error
 * (no `code`) asking whether a worker runs, the same whether the message was stored or not; a client could
 * not tell that the call was stored and would still be checked (its session's state going on from it), and
 * retrying it met a DuplicateCallError telling it to give each call its own id. Now an AnswerTimeoutError
 * (`ERR_LOOPWATCH_ANSWER_TIMEOUT`) says so, with the message's stream sequence; and a check waiting at
 * close() rejects with a ClosedError (`ERR_LOOPWATCH_CLOSED`) rather than a plain Error. A call published
 * before any worker made the streams rejected with the NATS client's "jetstream is not enabled" on a server
 * running JetStream; now a NoStreamError (`ERR_LOOPWATCH_NO_STREAM`) says to start a worker first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerTimeoutError, ClosedError, DuplicateCallError, NatsCaller, NoStreamError } from '../src/nats.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

const make = (id: string) => ({ id, tool: 'bash', args: { command: 'make' }, error: 'make: *** [all] Error 1' });

describe.skipIf(natsServerBinary === null)('NatsCaller: no answer in time', () => {
  it('should say no stream takes calls before a worker made them, reject with an AnswerTimeoutError naming the stored sequence, and the stored call is still checked when a worker comes', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    // before any worker: no stream takes the calls (the NATS client says "jetstream is not enabled")
    const early = await NatsCaller.connect(server.url);
    const noStream = await early.check('t0', [make('c1')], 5_000).then(() => null, (e: unknown) => e);
    expect(noStream).toBeInstanceOf(NoStreamError);
    expect(noStream).toMatchObject({
      code: 'ERR_LOOPWATCH_NO_STREAM',
      message: "loopwatch: the call was not stored: no stream on this NATS server takes loopwatch's calls yet: the first loopwatch serve --nats worker to start makes the streams, so start one on this server, then publish",
    });
    await expect(early.end('t0')).rejects.toBeInstanceOf(NoStreamError);
    await early.close();
    // a worker makes the streams, then goes: calls are stored and wait for the next worker
    const first = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w1' });
    await until('the first worker to own its partition', () => first.partitions().length === 1);
    await first.stop();
    const caller = await NatsCaller.connect(server.url);
    cleanup.push(() => caller.close());

    const timedOut = await caller.check('t1', [make('c1')], 400).then(() => null, (e: unknown) => e as AnswerTimeoutError);
    expect(timedOut).toBeInstanceOf(AnswerTimeoutError);
    expect(timedOut).toMatchObject({ code: 'ERR_LOOPWATCH_ANSWER_TIMEOUT', sessionId: 't1', timeoutMs: 400 });
    expect(timedOut?.seq).toBeGreaterThan(0);
    expect(timedOut?.message).toBe(
      `no answer for session "t1" in 400 ms: the message is stored (calls stream sequence ${timedOut?.seq}) and is still checked, in order, once a worker holds its partition: is a loopwatch serve --nats worker running? (a dead worker's partition moves after its --lease-ms); publishing it again with the same call ids within 2 minutes is dropped as a repeat`,
    );
    // propose() and record() wait through check(): the same error
    await expect(caller.propose('t2', { id: 'p1', tool: 'bash', args: { command: 'ls' } }, 300)).rejects.toMatchObject({ code: 'ERR_LOOPWATCH_ANSWER_TIMEOUT', sessionId: 't2' });
    // the same call id again is a repeat the stream drops
    const again = await caller.check('t1', [make('c1')], 400).then(() => null, (e: unknown) => e);
    expect(again).toBeInstanceOf(DuplicateCallError);
    expect((again as Error).message).toMatch(/give each call of a session its own id \(a call whose check timed out is stored and still checked: send it no more\)$/);

    const second = await NatsWorker.start({ servers: server.url, partitions: 1, leaseMs: 600, workerId: 'w2' });
    cleanup.push(() => second.stop());
    // the stored c1 was checked: c2 and c3, the same failing make, are its second and third run
    expect((await caller.check('t1', [make('c2')], 20_000)).results).toEqual([{ id: 'c2', verdict: null }]);
    const third = (await caller.check('t1', [make('c3')], 20_000)).results[0] as { verdict: { kind: string; repeatCount: number } | null };
    expect(third.verdict).toMatchObject({ kind: 'exact_repeat', repeatCount: 3 });

    // a check waiting when the caller closes rejects with a ClosedError
    await second.stop();
    const waiting = caller.check('t3', [make('c1')], 20_000).then(() => null, (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300)); // published and stored
    await caller.close();
    const closed = await waiting;
    expect(closed).toBeInstanceOf(ClosedError);
    expect(closed).toMatchObject({ code: 'ERR_LOOPWATCH_CLOSED', message: 'loopwatch: the NatsCaller was closed before the answer came' });
  }, 60_000);
});
