/**
 * Two-phase calls through NATS JetStream (a real nats-server on 127.0.0.1): calls with a `phase` (propose
 * before the call runs, record after) are answered with LiveDecisions; the shared live scenarios,
 * interleaved, give the decisions of one LoopDetector per session through 1 and 2 workers, one call per
 * message or several, and when a worker process is SIGKILLed mid-stream (waiting proposals and blocked
 * calls travel in the stored snapshots). NatsCaller.propose/record; the proposal and the record of one
 * call are two messages, neither deduplicated as a repeat of the other.
 */
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidEventError } from '../src/index.js';
import { readCallMessage } from '../src/serve/nats/call-message.js';
import { type MessageAnswer, NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { type Fleet, scenarioFleet } from './helpers/live-fleet.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';
import { type WorkerProcess, publishAll, startWorker, until } from './helpers/nats-run.js';
import { json } from './helpers/verdicts.js';
import { CONFIG_PRESETS } from '../src/index.js';

const PARTITIONS = 6;
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** Every answer message published, by session and stream sequence (repeats after a move kept apart). */
class AnswerCollector {
  readonly bySession = new Map<string, Map<number, string[]>>();
  private answered = 0;
  private constructor(private readonly nc: NatsConnection) {}

  static async start(url: string): Promise<AnswerCollector> {
    const c = new AnswerCollector(await connect({ servers: url }));
    c.nc.subscribe('loopwatch.verdicts.>', {
      callback: (err, m) => {
        if (err !== null) return;
        const a = m.json<MessageAnswer>();
        let seqs = c.bySession.get(a.session);
        if (seqs === undefined) c.bySession.set(a.session, (seqs = new Map()));
        const seen = seqs.get(a.seq);
        if (seen === undefined) {
          seqs.set(a.seq, [json(a.results)]);
          c.answered += a.results.length;
        } else seen.push(json(a.results));
      },
    });
    await c.nc.flush();
    return c;
  }

  async waitFor(n: number, ms: number): Promise<void> {
    await until(`${n} calls answered (${this.answered} so far)`, () => this.answered >= n, ms);
  }

  /** Each session's answers in stream order, one per call; every repeat of a message's answer must be identical. */
  perSession(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [session, seqs] of this.bySession) {
      const list: string[] = [];
      for (const seq of [...seqs.keys()].sort((a, b) => a - b)) {
        const seen = seqs.get(seq) as string[];
        expect(new Set(seen).size, `session ${session}, message ${seq} answered differently: ${seen.join(' / ').slice(0, 400)}`).toBe(1);
        for (const r of JSON.parse(seen[0] as string) as unknown[]) list.push(json(r));
      }
      out.set(session, list);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}

/** The fleet's expected answers by session, in order. */
function wanted(f: Fleet): Map<string, string[]> {
  const out = new Map<string, string[]>();
  f.ops.forEach((op, i) => {
    let list = out.get(op.session);
    if (list === undefined) out.set(op.session, (list = []));
    list.push(f.want[i] as string);
  });
  return out;
}

const published = (f: Fleet) => f.ops.map((op) => ({ session: op.session, call: { ...op.call, phase: op.kind as 'propose' | 'record' } }));

async function startWorkers(url: string, n: number): Promise<NatsWorker[]> {
  const ws: NatsWorker[] = [];
  for (let i = 0; i < n; i++) ws.push(await NatsWorker.start({ servers: url, partitions: PARTITIONS, leaseMs: 2_000, snapshotEvery: 3, workerId: `w${i}` }));
  cleanup.push(async () => void (await Promise.all(ws.map((w) => w.stop()))));
  const fair = Math.ceil(PARTITIONS / n);
  await until('partitions shared out', () => {
    const owned = ws.map((w) => w.partitions().length);
    return owned.reduce((a, b) => a + b, 0) === PARTITIONS && owned.every((k) => k <= fair);
  });
  return ws;
}

describe('two-phase call messages', () => {
  it('should read a phase on each call, absent for a plain check, and refuse any other naming the field', () => {
    const m = readCallMessage('s', Buffer.from(JSON.stringify({ calls: [{ tool: 'a', phase: 'propose', id: 'c1' }, { tool: 'b' }, { tool: 'a', phase: 'record', id: 'c1', result: 'ok' }] })), undefined);
    expect(m.kind === 'calls' && m.calls.map((c) => c.phase)).toEqual(['propose', undefined, 'record']);
    const one = readCallMessage('s', Buffer.from(JSON.stringify({ tool: 'a', phase: 'before' })), undefined);
    expect(one.kind === 'invalid' && [one.error.field, one.error.message]).toEqual(['phase', 'phase must be "propose" or "record" when given, received "before" (string)']);
    const batch = readCallMessage('s', Buffer.from(JSON.stringify({ calls: [{ tool: 'a' }, { tool: 'a', phase: 3 }] })), undefined);
    expect(batch.kind === 'invalid' && batch.error.field).toBe('calls[1].phase');
  });
});

describe.skipIf(natsServerBinary === null)('two-phase calls through NATS workers', () => {
  it.each([
    [1, 1],
    [2, 1],
    [2, 4],
  ])('should give the decisions of a LoopDetector per session on the shared scenarios, %i workers, up to %i calls a message', async (n, batch) => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    const ws = await startWorkers(server.url, n);
    const collector = await AnswerCollector.start(server.url);
    cleanup.push(() => collector.close());
    const fleet = scenarioFleet(`n${n}-${batch}-`, 2);
    await publishAll(server.url, published(fleet), batch);
    await collector.waitFor(fleet.ops.length, 30_000);
    for (const w of ws) expect(w.stats.calls).toBeGreaterThan(0);
    expect(Object.fromEntries(collector.perSession())).toEqual(Object.fromEntries(wanted(fleet)));
  }, 60_000);

  it('should carry on exactly when a worker process is killed mid-stream (waiting proposals and blocks in the stored snapshots)', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    const a = startWorker(server.url, 'wa', 900);
    const b = startWorker(server.url, 'wb', 900);
    cleanup.push(async () => {
      for (const w of [a, b] as WorkerProcess[]) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    });
    await until('two workers sharing 6 partitions', () => a.owned().size === 3 && b.owned().size === 3);
    const collector = await AnswerCollector.start(server.url);
    cleanup.push(() => collector.close());
    // worker processes (`loopwatch serve --nats`) run the shipped default preset (fitted), as configOptions({}) does
    const fleet = scenarioFleet('kill-', 3, 5, CONFIG_PRESETS.default?.(undefined) ?? {});
    const kill = Math.floor(fleet.ops.length / 2);
    await publishAll(server.url, published(fleet), 1, 50, async (k) => {
      if (k % 50 === 49) await new Promise((r) => setTimeout(r, 30));
      if (k === kill) a.child.kill('SIGKILL');
    });
    expect(await a.exited).toBe(null);
    await collector.waitFor(fleet.ops.length, 40_000);
    expect(Object.fromEntries(collector.perSession())).toEqual(Object.fromEntries(wanted(fleet)));
    await until('worker b to hold every partition', () => b.owned().size === 6);
    expect(b.log()).not.toContain('state not kept');
  }, 90_000);

  it('should answer NatsCaller.propose and record with LiveDecisions, keep the proposal and the record of one call apart, and reject a refused call', async () => {
    const server: NatsServer = await startNatsServer();
    cleanup.push(() => server.stop());
    await startWorkers(server.url, 1);
    const caller = await NatsCaller.connect(server.url);
    cleanup.push(() => caller.close());
    const call = { id: 't1', tool: 'bash', args: { command: 'make' } };
    const p = await caller.propose('caller-1', call);
    expect(p).toEqual({ session: 'caller-1', phase: 'propose', id: 't1', action: 'allow', verdict: null });
    // the record has the proposal's call id, and is stored all the same
    const r = await caller.record('caller-1', { ...call, error: 'make: *** Error 2' });
    expect(r).toMatchObject({ session: 'caller-1', phase: 'record', id: 't1', action: 'allow' });
    // a proposal published again (same id and phase) is stored once
    const again = await caller.publish('caller-1', [{ ...call, phase: 'propose' }]);
    expect(again.duplicate).toBe(true);
    await expect(caller.propose('caller-1', { id: 't2', tool: '' })).rejects.toBeInstanceOf(InvalidEventError);
  }, 30_000);
});
