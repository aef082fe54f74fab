/**
 * hostile32: sessions sharing a NATS partition were checked in delivery order, so one session flooding
 * it held up its neighbours (hostile30: a legit call unanswered for 20 s). A worker now takes its pending
 * deliveries round-robin between sessions (fair-queue.ts): a call stored behind a session's backlog is
 * answered while that backlog is still being checked, and the backlog's calls keep their order (the
 * flood's verdicts are those of the same calls checked alone). Real nats-server; counts, no times.
 */
import { describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { natsCallerFixture } from './helpers/nats-fixture.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { VerdictCollector, until } from './helpers/nats-run.js';

/** The flood: one session's calls, each command three times in a row (so every third is a repeat). */
const FLOOD = 3_000;
const floodCall = (i: number): { id: string; tool: string; args: { command: string } } => ({ id: `f${i}`, tool: 'bash', args: { command: `make step-${Math.floor(i / 3)}` } });

describe.skipIf(natsServerBinary === null)('sessions of one NATS partition served fairly', () => {
  const f = natsCallerFixture();

  it('should answer a call stored behind another session\'s backlog before that backlog is checked, the backlog in order', async () => {
    // the layout made, then no worker while the flood and the legit call are stored behind it
    const maker = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 600, workerId: 'maker' });
    await maker.stop();
    const verdicts = await VerdictCollector.start(f.server.url);
    const messages = Array.from({ length: FLOOD }, (_, i) => f.caller.publish('flood', [floodCall(i)]));
    await Promise.all(messages);
    const legit = f.caller.check('legit', [{ id: 'l1', tool: 'read', args: { path: '/README.md' } }], 120_000);
    await new Promise((r) => setTimeout(r, 200)); // stored (the check publishes first)
    const worker = await NatsWorker.start({ servers: f.server.url, partitions: 1, leaseMs: 5_000, workerId: 'w1', flushMs: 100 });
    try {
      const answer = await legit;
      const checkedThen = worker.stats.calls;
      expect(answer.results.map((r) => 'verdict' in r)).toEqual([true]);
      // in delivery order it came after the whole flood
      expect(checkedThen).toBeLessThan(FLOOD * 0.9);
      await until('the flood checked', () => worker.stats.calls === FLOOD + 1, 120_000);
      await verdicts.waitFor(FLOOD + 1, 30_000);
    } finally {
      await worker.stop();
    }
    // the flood's verdicts are those of its calls checked alone, in order, on a fresh server
    const alone = await startNatsServer();
    const aloneCaller = await NatsCaller.connect(alone.url);
    const aloneVerdicts = await VerdictCollector.start(alone.url);
    const solo = await NatsWorker.start({ servers: alone.url, partitions: 1, leaseMs: 5_000, workerId: 'solo', flushMs: 100 });
    try {
      await Promise.all(Array.from({ length: FLOOD }, (_, i) => aloneCaller.publish('flood', [floodCall(i)])));
      await aloneVerdicts.waitFor(FLOOD, 120_000);
      for (let i = 0; i < FLOOD; i++) expect(verdicts.byId.get(`f${i}`)?.[0], `f${i}`).toBe(aloneVerdicts.byId.get(`f${i}`)?.[0]);
      expect([...verdicts.byId.values()].some((v) => /exact_repeat/.test(v[0] ?? ''))).toBe(true);
    } finally {
      await solo.stop();
      await aloneVerdicts.close();
      await aloneCaller.close();
      await alone.stop();
      await verdicts.close();
    }
  }, 300_000);
});
