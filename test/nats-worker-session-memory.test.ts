/**
 * hostile30: a NATS worker held up to `--max-sessions` (100,000) sessions whatever they weighed: 20,000
 * sessions of 2 KB calls flooded into a real worker took it from 60 to 367 MB, with nothing to stop more.
 * It now counts what its sessions hold as `loopwatch serve` does (held-memory.ts, `--session-memory`) and
 * evicts the least recently used past the budget; an evicted session's state goes to the bucket and comes
 * back at its next call, so its loops are still seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';

const BUDGET = 1 << 20;

describe.skipIf(natsServerBinary === null)('a NATS worker bounded by what its sessions hold', () => {
  let server: NatsServer;
  let worker: NatsWorker;
  let caller: NatsCaller;
  beforeAll(async () => {
    server = await startNatsServer();
    worker = await NatsWorker.start({ servers: server.url, partitions: 2, leaseMs: 600, workerId: 'w1', flushMs: 50, sessionMemory: BUDGET });
    caller = await NatsCaller.connect(server.url);
    for (let i = 0; i < 50 && worker.partitions().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  }, 30_000);
  afterAll(async () => {
    await caller?.close();
    await worker?.stop();
    await server?.stop();
  }, 30_000);

  it('should keep its sessions within the budget through a flood, answer every call, and still see a loop begun before it', async () => {
    const repeat = { tool: 'bash', args: { command: 'pytest -x' } };
    await caller.check('kept', [{ ...repeat, id: 'k1' }]);
    // 160 sessions of two 16 KB calls each: about 5 MB of calls against a 1 MiB budget
    const big = (i: number, j: number): { id: string; tool: string; args: { path: string; text: string } } => ({ id: `c${j}`, tool: 'write', args: { path: `/f${i}`, text: `${i}-${j}-`.padEnd(16_000, 'x') } });
    for (let at = 0; at < 160; at += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => caller.check(`flood-${at + k}`, [big(at + k, 0), big(at + k, 1)], 30_000)));
      for (const a of answers) expect(a.results.map((r) => 'verdict' in r)).toEqual([true, true]);
      expect(worker.memory.total).toBeLessThanOrEqual(BUDGET);
    }
    expect(worker.memory.budget).toBe(BUDGET);
    // evicted long ago, read back from the bucket: its second identical call is a repeat
    const again = await caller.check('kept', [{ ...repeat, id: 'k2' }, { ...repeat, id: 'k3' }]);
    expect(again.results.map((r) => ('verdict' in r ? (r.verdict?.kind ?? null) : 'error'))).toEqual([null, 'exact_repeat']);
  }, 120_000);

  it('should refuse a budget below one session\'s fixed cost', async () => {
    await expect(NatsWorker.start({ servers: server.url, partitions: 2, workerId: 'w2', sessionMemory: 1000 })).rejects.toThrow(/sessionMemory|session-memory/);
  });
});
