/**
 * A worker process that stalls (SIGSTOP, longer than two leases, then SIGCONT) on a real nats-server: its
 * leases go stale and its partitions move while it still thinks it holds them; it wakes up with calls in
 * hand, to find them gone. Every call still gets the verdict of an uninterrupted run, and no session's state
 * is reported lost: an owner that lost its partition pulls from a consumer that no longer exists, and a
 * stored state never goes back in the stream.
 */
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

describe.skipIf(natsServerBinary === null)('a NATS worker that stalls past its leases', () => {
  it('should lose its partitions to the others, and every call still gets the verdict of an uninterrupted run', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    const ws: WorkerProcess[] = ['x0', 'x1', 'x2'].map((id) => startWorker(server.url, id, 800));
    cleanup.push(async () => {
      for (const w of ws) {
        w.child.kill('SIGCONT');
        w.child.kill('SIGKILL');
      }
    });
    await until('three workers sharing 6 partitions', () => ws.every((w) => w.owned().size === 2));
    const collector = await VerdictCollector.start(server.url);
    cleanup.push(() => collector.close());
    const calls = fleetEvents(150, 20);
    const sleeper = ws[0] as WorkerProcess;
    await publishAll(server.url, withIds(calls), 1, 50, async (k) => {
      if (k % 50 === 49) await new Promise((r) => setTimeout(r, 30));
      if (k === 700) {
        sleeper.child.kill('SIGSTOP');
        setTimeout(() => sleeper.child.kill('SIGCONT'), 2_500);
      }
    });
    await collector.waitFor(calls.length, 60_000);
    const want = perSession(calls, SHIPPED);
    for (let i = 0; i < calls.length; i++) for (const v of collector.byId.get(String(i)) ?? []) expect(v, `call ${i}`).toBe(want[i]);
    await until('the stalled worker to find its partitions lost', () => /partition \d lost/.test(sleeper.log()));
    for (const w of ws) expect(w.log()).not.toContain('state not kept');
  }, 90_000);
});
