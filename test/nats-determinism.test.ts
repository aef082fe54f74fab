/**
 * Determinism through NATS JetStream (a real nats-server on 127.0.0.1): the calls of the real traces
 * (skipped without ../shared) and of a synthetic fleet, published one message per call, through 1, 2 and 3
 * workers give the verdicts of one LoopDetector per session, call by call: fed the calls `serve`'s door lets
 * in (call-door.ts admitCall), as the HTTP server's are (serve-http-routes.test.ts), since a worker lets
 * its calls in through the same door (secrets redacted: 540 calls of the traces hold one).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../src/index.js';
import { admitCall } from '../src/serve/call-door.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { fleetEvents } from '../bench/fleet.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { VerdictCollector, publishAll, withIds } from './helpers/nats-run.js';
import { traceCalls, traceDir } from './helpers/traces.js';
import { perSession } from './helpers/verdicts.js';

const PARTITIONS = 6;
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** Starts `n` workers and waits until they share the partitions evenly. */
async function workers(url: string, n: number): Promise<NatsWorker[]> {
  const ws: NatsWorker[] = [];
  for (let i = 0; i < n; i++) ws.push(await NatsWorker.start({ servers: url, partitions: PARTITIONS, leaseMs: 2_000, snapshotEvery: 7, workerId: `w${i}` }));
  cleanup.push(async () => void (await Promise.all(ws.map((w) => w.stop()))));
  const fair = Math.ceil(PARTITIONS / n);
  for (let t = 0; t < 200; t++) {
    const owned = ws.map((w) => w.partitions().length);
    if (owned.reduce((a, b) => a + b, 0) === PARTITIONS && owned.every((k) => k <= fair)) return ws;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`partitions not shared out: ${ws.map((w) => w.partitions().join(',')).join(' / ')}`);
}

async function throughWorkers(events: readonly SessionEvent[], n: number, batch: number): Promise<string[]> {
  const server: NatsServer = await startNatsServer();
  cleanup.push(() => server.stop());
  const ws = await workers(server.url, n);
  const collector = await VerdictCollector.start(server.url);
  cleanup.push(() => collector.close());
  await publishAll(server.url, withIds(events), batch);
  await collector.waitFor(events.length, 60_000);
  // every call was checked (some twice, where a partition moved), and by more than one worker when there
  // are several: not by each, since on a starved machine a worker may lose its partitions (a lease renewal
  // that times out) before its first call, and their new owner's verdicts must be the same
  const checked = ws.map((w) => w.stats.calls);
  expect(checked.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(events.length);
  expect(checked.filter((k) => k > 0).length, `calls checked by each worker: ${checked.join(', ')}`).toBeGreaterThanOrEqual(Math.min(n, 2));
  return events.map((_, i) => {
    const seen = collector.byId.get(String(i)) ?? [];
    expect(new Set(seen).size, `call ${i} answered differently: ${seen.join(' / ').slice(0, 300)}`).toBe(1);
    return seen[0] as string;
  });
}

describe.skipIf(natsServerBinary === null)('the same verdicts through 1, 2 and 3 NATS workers', () => {
  it.each([1, 2, 3])('should agree with a LoopDetector per session on a synthetic fleet, %i workers', async (n) => {
    const events = fleetEvents(300, 12);
    expect(await throughWorkers(events, n, n === 2 ? 5 : 1)).toEqual(perSession(events));
  }, 60_000);

  // the traces read, and their verdicts worked out, once for the three runs (~3 s each time)
  let traces: { events: SessionEvent[]; want: string[] } | undefined;
  const realTraces = (): { events: SessionEvent[]; want: string[] } => {
    if (traces !== undefined) return traces;
    const events = traceCalls().map(([session, e]): SessionEvent => ({ ...e, session }));
    return (traces = { events, want: perSession(events.map((e) => admitCall(e).call)) });
  };

  it.skipIf(traceDir === null).each([1, 2, 3])('should agree on every call of the real traces, %i workers', async (n) => {
    const { events, want } = realTraces();
    expect(await throughWorkers(events, n, 1)).toEqual(want);
  }, 120_000);
});
