/**
 * Drives the NATS service in tests: publishes calls in order (one message per call, or batches of one
 * session's consecutive calls), collects every verdict message published (repeats included) and waits until
 * each call has its answer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import type { SessionEvent } from '../../src/index.js';
import { NatsCaller, type MessageAnswer, type PublishedCall } from '../../src/serve/nats/nats-caller.js';
import { CLI } from './cli.js';
import { json } from './verdicts.js';

/** Every answer seen for each call id (more than one when a call was delivered again after a move). */
export class VerdictCollector {
  readonly byId = new Map<string, string[]>();
  private nc!: NatsConnection;

  static async start(url: string): Promise<VerdictCollector> {
    const c = new VerdictCollector();
    c.nc = await connect({ servers: url });
    c.nc.subscribe('loopwatch.verdicts.>', {
      callback: (err, m) => {
        if (err !== null) return;
        for (const r of m.json<MessageAnswer>().results) {
          const id = (r as { id?: string }).id ?? '?';
          const text = 'verdict' in r ? json(r.verdict) : json({ error: r.error });
          const list = c.byId.get(id);
          if (list === undefined) c.byId.set(id, [text]);
          else list.push(text);
        }
      },
    });
    await c.nc.flush();
    return c;
  }

  /** Resolves once `n` distinct calls have an answer; rejects after `ms`. */
  async waitFor(n: number, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.byId.size < n) {
      if (Date.now() > until) throw new Error(`only ${this.byId.size} of ${n} calls answered in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}

/** The calls with ids `0..n-1` (their index), each without its session field. */
export function withIds(events: readonly SessionEvent[]): { session: string; call: PublishedCall }[] {
  return events.map((e, i) => {
    const { session, ...rest } = e;
    return { session, call: { ...rest, id: String(i) } };
  });
}

/**
 * Publishes the calls in order, `batch` consecutive calls of one session per message (1: one per call),
 * at most `window` publishes awaiting their acknowledgement at once. `between(k)` runs after the k-th message.
 */
export async function publishAll(url: string, calls: readonly { session: string; call: PublishedCall }[], batch = 1, window = 1000, between?: (k: number) => Promise<void>): Promise<number> {
  const caller = await NatsCaller.connect(url);
  const messages: { session: string; calls: PublishedCall[] }[] = [];
  for (const { session, call } of calls) {
    const last = messages[messages.length - 1];
    if (last !== undefined && last.session === session && last.calls.length < batch) last.calls.push(call);
    else messages.push({ session, calls: [call] });
  }
  let inFlight: Promise<unknown>[] = [];
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k] as { session: string; calls: PublishedCall[] };
    inFlight.push(caller.publish(m.session, m.calls));
    if (inFlight.length >= window) {
      await Promise.all(inFlight);
      inFlight = [];
    }
    if (between !== undefined) await between(k);
  }
  await Promise.all(inFlight);
  await caller.close();
  return messages.length;
}

/** A `loopwatch serve --nats` worker process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  log(): string;
  readonly exited: Promise<number | null>;
  /** Partitions it holds now, from its log. */
  owned(): Set<number>;
}

/** Starts a worker process (6 partitions, snapshots every 5 calls, leases of `leaseMs`). */
export function startWorker(url: string, id: string, leaseMs: number): WorkerProcess {
  const child = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--partitions', '6', '--snapshot-every', '5', '--lease-ms', String(leaseMs), '--worker-id', id], { stdio: ['ignore', 'ignore', 'pipe'] });
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

/** Resolves once `ok()` holds (or resolves true); rejects after `ms`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

