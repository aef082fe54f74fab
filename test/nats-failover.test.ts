/**
 * Failover on a real nats-server: two `loopwatch serve --nats` worker processes share the partitions; one is
 * killed with SIGKILL mid-stream and a third joins later. The partitions move, sessions come back from the
 * key-value bucket, and every call gets the verdict of an uninterrupted run (one LoopDetector per session):
 * no call is lost, and the verdicts stream holds each message's answer exactly once (repeated deliveries
 * are deduplicated). A worker stopped with SIGTERM releases its partitions and exits 0.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetEvents } from '../bench/fleet.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { type WorkerProcess, VerdictCollector, publishAll, startWorker, until, withIds } from './helpers/nats-run.js';
import { perSession } from './helpers/verdicts.js';
import { CONFIG_PRESETS } from '../src/index.js';
// `loopwatch serve --nats` runs the shipped default preset (fitted: docs/evaluation.md), as configOptions({}) does
const SHIPPED = CONFIG_PRESETS.default?.(undefined) ?? {};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe.skipIf(natsServerBinary === null)('NATS workers when one is killed', () => {
  it('should move its partitions and give every call the verdict of an uninterrupted run, once in the verdicts stream', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    const a = startWorker(server.url, 'wa', 900);
    const b = startWorker(server.url, 'wb', 900);
    let c: WorkerProcess | undefined;
    cleanup.push(async () => {
      for (const w of [a, b, c]) if (w !== undefined && w.child.exitCode === null) w.child.kill('SIGKILL');
    });
    await until('two workers sharing 6 partitions', () => a.owned().size === 3 && b.owned().size === 3);
    const collector = await VerdictCollector.start(server.url);
    cleanup.push(() => collector.close());

    const events = fleetEvents(200, 20);
    const calls = withIds(events);
    const messages = await publishAll(server.url, calls, 1, 100, async (k) => {
      if (k % 100 === 99) await new Promise((r) => setTimeout(r, 40));
      if (k === 1200) a.child.kill('SIGKILL');
      if (k === 2800) c = startWorker(server.url, 'wc', 900);
    });
    expect(await a.exited).toBe(null);
    const hadA = a.owned();
    await collector.waitFor(events.length, 40_000);

    const want = perSession(events, SHIPPED);
    let repeated = 0;
    for (let i = 0; i < events.length; i++) {
      const seen = collector.byId.get(String(i)) ?? [];
      repeated += seen.length - 1;
      for (const v of seen) expect(v, `call ${i} (${events[i]?.session})`).toBe(want[i]);
    }
    expect(b.log()).not.toContain('state not kept');
    // the killed worker had answered calls, and its partitions moved
    expect(a.log()).toMatch(/partition \d acquired/);
    await until('workers b and c to hold every partition', () => b.owned().size + (c?.owned().size ?? 0) === 6);
    const taken = [...hadA].filter((p) => new RegExp(`partition ${p} acquired`).test(b.log() + (c?.log() ?? '')));
    expect(taken.length).toBeGreaterThan(0);

    const nc = await connect({ servers: server.url });
    const jsm = await jetstreamManager(nc);
    const verdicts = await jsm.streams.info('LOOPWATCH_VERDICTS');
    expect(verdicts.state.messages).toBe(messages);
    await nc.close();
    process.stderr.write(`failover: ${events.length} calls, ${repeated} answers published again after the move (deduplicated in the stream)\n`);

    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.log()).toMatch(/stopped; \d+ calls checked/);
  }, 90_000);
});
