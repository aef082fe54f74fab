/**
 * Failover on a real nats-server: two `loopwatch serve --nats` worker processes share the partitions; one is
 * killed with SIGKILL mid-stream and a third joins later. The partitions move, sessions come back from the
 * key-value bucket, and every call gets the verdict of an uninterrupted run (one LoopDetector per session):
 * no call is lost, and the verdicts stream holds each message's answer exactly once (repeated deliveries
 * are deduplicated). A worker stopped with SIGTERM releases its partitions and exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetEvents } from '../bench/fleet.js';
import { CLI } from './helpers/cli.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { VerdictCollector, publishAll, withIds } from './helpers/nats-run.js';
import { perSession } from './helpers/verdicts.js';

interface Worker {
  readonly child: ChildProcess;
  log(): string;
  readonly exited: Promise<number | null>;
  /** Partitions it holds now, from its log. */
  owned(): Set<number>;
}

function startWorker(url: string, id: string): Worker {
  const child = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--partitions', '6', '--snapshot-every', '5', '--lease-ms', '900', '--worker-id', id], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (b: Buffer) => (log += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const owned = (): Set<number> => {
    const s = new Set<number>();
    for (const m of log.matchAll(/partition (\d+) (acquired|released|lost)/g)) {
      if (m[2] === 'acquired') s.add(Number(m[1]));
      else s.delete(Number(m[1]));
    }
    return s;
  };
  return { child, log: () => log, exited, owned };
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe.skipIf(natsServerBinary === null)('NATS workers when one is killed', () => {
  it('should move its partitions and give every call the verdict of an uninterrupted run, once in the verdicts stream', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    const a = startWorker(server.url, 'wa');
    const b = startWorker(server.url, 'wb');
    let c: Worker | undefined;
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
      if (k === 2800) c = startWorker(server.url, 'wc');
    });
    expect(await a.exited).toBe(null);
    const hadA = a.owned();
    await collector.waitFor(events.length, 40_000);

    const want = perSession(events);
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
