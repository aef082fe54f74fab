/**
 * `--scope nats`: the NATS JetStream service on a real nats-server (127.0.0.1, JetStream on disk in a
 * temporary folder), workers as `loopwatch serve --nats` processes (8 partitions, every default detector),
 * this process publishing and collecting. On a synthetic fleet (2,000 sessions x 100 calls, with results),
 * batched input: messages of 50 consecutive calls of one session. Measured beside the engine in this
 * process on the same batches:
 *
 * - 1 worker process, then 2 (a fresh server each), on a stream filled beforehand (so that this process's
 *   publishing does not compete with the workers): calls/s from the first answer to the last;
 * - 1 worker, single calls with request/reply, one at a time: the latency a caller waiting for its answer sees.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { NatsCaller, type MessageAnswer, type PublishedCall } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { fleetEvents } from './fleet.js';
import { natsServerBinary, startNatsServer } from './nats-server.js';
import { type ServiceFigure, push, quantile } from './service-figures.js';

const SCOPE = 'nats: JetStream, all default detectors';
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const PARTITIONS = 8;
const BATCH = 50;

/** Starts `n` worker processes; resolves with them and a promise of their holding every partition. */
function startWorkers(url: string, n: number): { children: ChildProcess[]; ready: Promise<void> } {
  const logs: string[] = [];
  const children = Array.from({ length: n }, (_, i) => {
    const c = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--partitions', String(PARTITIONS), '--lease-ms', '1000', '--worker-id', `bench${i}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    logs[i] = '';
    c.stderr?.on('data', (b: Buffer) => (logs[i] += b.toString()));
    return c;
  });
  const held = (log: string): number => (log.match(/acquired/g) ?? []).length - (log.match(/released|lost/g) ?? []).length;
  const ready = (async () => {
    for (let t = 0; t < 400; t++) {
      const h = logs.map(held);
      if (h.reduce((a, b) => a + b, 0) === PARTITIONS && h.every((k) => k <= Math.ceil(PARTITIONS / n))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`workers did not share the partitions: ${logs.join(' | ')}`);
  })();
  return { children, ready };
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

/** CPU seconds (user + system) a process has used so far, from /proc (NaN where there is no /proc). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Publishes the messages (windows of 200 awaiting their acknowledgement). */
async function publishAll(url: string, msgs: readonly { session: string; calls: PublishedCall[] }[]): Promise<void> {
  const caller = await NatsCaller.connect(url);
  let window: Promise<unknown>[] = [];
  for (const m of msgs) {
    window.push(caller.publish(m.session, m.calls));
    if (window.length >= 200) {
      await Promise.all(window);
      window = [];
    }
  }
  await Promise.all(window);
  await caller.close();
}

/** Counts answered calls on the verdict subjects; `done` resolves at `total`, with calls/s from the first answer to the last. */
async function answers(url: string, total: number): Promise<{ done: Promise<number>; close: () => Promise<void> }> {
  const nc = await connect({ servers: url });
  let answered = 0;
  let first = 0;
  const done = new Promise<number>((resolve) => {
    nc.subscribe('loopwatch.verdicts.>', {
      callback: (_e, m) => {
        if (answered === 0) first = performance.now();
        answered += m.json<MessageAnswer>().results.length;
        if (answered >= total) resolve(total / ((performance.now() - first) / 1000));
      },
    });
  });
  await nc.flush();
  return { done, close: () => nc.close() };
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
    const setup = await NatsWorker.start({ servers: server.url, partitions: PARTITIONS, workerId: 'setup' }); // the streams and buckets
    await setup.stop();
    await publishAll(server.url, msgs);
    const heard = await answers(server.url, calls);
    const { children, ready } = startWorkers(server.url, n);
    try {
      await ready;
      const cpu0 = [...children.map((c) => cpuSeconds(c.pid)), cpuSeconds(server.process.pid)];
      const t0 = performance.now();
      const callsPerSecond = await heard.done;
      const wall = (performance.now() - t0) / 1000;
      const cpu = [...children.map((c) => cpuSeconds(c.pid)), cpuSeconds(server.process.pid)].map((x, i) => (x - (cpu0[i] as number)) / wall);
      const share = `CPU per wall second: ${cpu.slice(0, n).map((x) => x.toFixed(2)).join(' + ')} worker${n > 1 ? 's' : ''}, ${(cpu[n] as number).toFixed(2)} nats-server`;
      push(out, { scope: SCOPE, impl: `${n} worker process${n > 1 ? 'es' : ''}, messages of ${BATCH} calls (stream filled beforehand; ${share})`, callsPerSecond, p50Ms: NaN, p99Ms: NaN });
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
      for (const w of children) w.kill('SIGKILL');
      await heard.close();
      await server.stop();
    }
  }
  return out;
}
