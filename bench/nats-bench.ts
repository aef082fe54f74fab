/**
 * `--scope nats`: the NATS JetStream service on a real nats-server (127.0.0.1, JetStream on disk in a
 * temporary folder), workers as `loopwatch serve --nats` processes (8 partitions, every default detector),
 * this process publishing and collecting. On a synthetic fleet (2,000 sessions x 100 calls, with results),
 * batched input: messages of 50 consecutive calls of one session. Measured beside the engine in this
 * process on the same batches:
 *
 * - 1 worker process, then 2 (a fresh server each): calls/s from the first publish to the last answer,
 *   and a message's latency from its publish to its answer (queueing included: everything is published
 *   at once);
 * - 1 worker, single calls with request/reply, one at a time: the latency a caller waiting for its answer sees.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { NatsCaller, type MessageAnswer, type PublishedCall } from '../src/serve/nats/nats-caller.js';
import { fleetEvents } from './fleet.js';
import { natsServerBinary, startNatsServer } from './nats-server.js';
import { type ServiceFigure, push, quantile } from './service-figures.js';

const SCOPE = 'nats: JetStream, all default detectors';
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const PARTITIONS = 8;
const BATCH = 50;

/** Starts `n` worker processes and resolves once they hold every partition. */
async function startWorkers(url: string, n: number): Promise<ChildProcess[]> {
  const logs: string[] = [];
  const children = Array.from({ length: n }, (_, i) => {
    const c = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--partitions', String(PARTITIONS), '--lease-ms', '1000', '--worker-id', `bench${i}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    logs[i] = '';
    c.stderr?.on('data', (b: Buffer) => (logs[i] += b.toString()));
    return c;
  });
  const held = (log: string): number => (log.match(/acquired/g) ?? []).length - (log.match(/released|lost/g) ?? []).length;
  for (let t = 0; t < 400; t++) {
    const h = logs.map(held);
    if (h.reduce((a, b) => a + b, 0) === PARTITIONS && h.every((k) => k <= Math.ceil(PARTITIONS / n))) return children;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`workers did not share the partitions: ${logs.join(' | ')}`);
}

/** The fleet as messages: `BATCH` consecutive calls of one session each, in an order that keeps each session's order. */
function messages(prefix: string, sessions: number, calls: number): { session: string; calls: PublishedCall[] }[] {
  const events = fleetEvents(sessions, calls);
  const bySession = new Map<string, PublishedCall[]>();
  events.forEach((e, i) => {
    const { session, ...rest } = e;
    const list = bySession.get(session) ?? [];
    list.push({ ...rest, id: String(i) });
    bySession.set(session, list);
  });
  const out: { session: string; calls: PublishedCall[] }[] = [];
  for (let at = 0; at < calls; at += BATCH) for (const [s, list] of bySession) out.push({ session: `${prefix}${s}`, calls: list.slice(at, at + BATCH) });
  return out;
}

/** Publishes every message at once (windows of 200 awaiting acks), resolves when all answers came: calls/s and latencies. */
async function throughput(url: string, msgs: readonly { session: string; calls: PublishedCall[] }[]): Promise<{ callsPerSecond: number; latencies: number[] }> {
  const nc = await connect({ servers: url });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let answered = 0;
  let last = 0;
  const total = msgs.reduce((a, m) => a + m.calls.length, 0);
  const done = new Promise<void>((resolve) => {
    nc.subscribe('loopwatch.verdicts.>', {
      callback: (_e, m) => {
        const a = m.json<MessageAnswer>();
        const id = (a.results[0] as { id?: string } | undefined)?.id ?? '';
        const t = sentAt.get(id);
        if (t === undefined) return; // repeated
        sentAt.delete(id);
        last = performance.now();
        latencies.push(last - t);
        answered += a.results.length;
        if (answered >= total) resolve();
      },
    });
  });
  await nc.flush();
  const caller = await NatsCaller.connect(url);
  const t0 = performance.now();
  let window: Promise<unknown>[] = [];
  for (const m of msgs) {
    sentAt.set(m.calls[0]?.id ?? '', performance.now());
    window.push(caller.publish(m.session, m.calls));
    if (window.length >= 200) {
      await Promise.all(window);
      window = [];
    }
  }
  await Promise.all(window);
  await done;
  await caller.close();
  await nc.close();
  return { callsPerSecond: total / ((last - t0) / 1000), latencies };
}

/** The nats scope's figures (none, with a note on stderr, without a nats-server binary). */
export async function natsFigures(): Promise<ServiceFigure[]> {
  const out: ServiceFigure[] = [];
  if (natsServerBinary === null) {
    process.stderr.write('nats scope skipped: no nats-server >= 2.10 (bash scripts/install-nats-server.sh)\n');
    return out;
  }
  const msgs = messages('m-', 2_000, 100);
  const calls = msgs.reduce((a, m) => a + m.calls.length, 0);
  const engine = new LoopEngine();
  for (const m of messages('warm-', 500, 20)) engine.checkBatch(m.calls.map((c) => ({ ...c, session: m.session })));
  const t = performance.now();
  for (const m of msgs) engine.checkBatch(m.calls.map((c) => ({ ...c, session: m.session })));
  push(out, { scope: SCOPE, impl: `LoopEngine.checkBatch in this process, batches of ${BATCH} (no NATS)`, callsPerSecond: calls / ((performance.now() - t) / 1000), p50Ms: NaN, p99Ms: NaN });
  engine.close();

  for (const n of [1, 2]) {
    const server = await startNatsServer();
    const workers = await startWorkers(server.url, n);
    try {
      await throughput(server.url, messages('warm-', 500, 20));
      const r = await throughput(server.url, msgs);
      push(out, { scope: SCOPE, impl: `${n} worker process${n > 1 ? 'es' : ''}, messages of ${BATCH} calls`, callsPerSecond: r.callsPerSecond, p50Ms: quantile(r.latencies, 0.5), p99Ms: quantile(r.latencies, 0.99) });
      if (n === 1) {
        const caller = await NatsCaller.connect(server.url);
        const singles = fleetEvents(200, 20);
        const latencies: number[] = [];
        const t1 = performance.now();
        for (let i = 0; i < singles.length; i++) {
          const { session, ...call } = singles[i] as (typeof singles)[number];
          const t2 = performance.now();
          await caller.check(`r-${session}`, [{ ...call, id: String(i) }]);
          latencies.push(performance.now() - t2);
        }
        push(out, { scope: SCOPE, impl: '1 worker, single calls, request/reply one at a time', callsPerSecond: singles.length / ((performance.now() - t1) / 1000), p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99) });
        await caller.close();
      }
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await server.stop();
    }
  }
  return out;
}
