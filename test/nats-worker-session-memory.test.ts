/**
 * hostile30: a NATS worker held up to `--max-sessions` (100,000) sessions whatever they weighed: 20,000
 * sessions of 2 KB calls flooded into a real worker took it from 60 to 367 MB, with nothing to stop more.
 * It now counts what its sessions hold as `loopwatch serve` does (held-memory.ts, `--session-memory`) and
 * evicts the least recently used past the budget; an evicted session's state goes to the bucket and comes
 * back at its next call, so its loops are still seen.
 */
import { describe, expect, it } from 'vitest';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { natsFixture } from './helpers/nats-fixture.js';
import { natsServerBinary } from './helpers/nats-server.js';

const BUDGET = 1 << 20;

describe.skipIf(natsServerBinary === null)('a NATS worker bounded by what its sessions hold', () => {
  const f = natsFixture(2, { sessionMemory: BUDGET });

  it('should keep its sessions within the budget through a flood, answer every call, and still see a loop begun before it', async () => {
    const repeat = { tool: 'bash', args: { command: 'pytest -x' } };
    await f.caller.check('kept', [{ ...repeat, id: 'k1' }]);
    // 160 sessions of two 16 KB calls each: about 5 MB of calls against a 1 MiB budget
    const big = (i: number, j: number): { id: string; tool: string; args: { path: string; text: string } } => ({ id: `c${j}`, tool: 'write', args: { path: `/f${i}`, text: `${i}-${j}-`.padEnd(16_000, 'x') } });
    for (let at = 0; at < 160; at += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => f.caller.check(`flood-${at + k}`, [big(at + k, 0), big(at + k, 1)], 30_000)));
      for (const a of answers) expect(a.results.map((r) => 'verdict' in r)).toEqual([true, true]);
      expect(f.worker.memory.total).toBeLessThanOrEqual(BUDGET);
    }
    expect(f.worker.memory.budget).toBe(BUDGET);
    // evicted long ago, read back from the bucket: its second identical call is a repeat
    const again = await f.caller.check('kept', [{ ...repeat, id: 'k2' }, { ...repeat, id: 'k3' }]);
    expect(again.results.map((r) => ('verdict' in r ? (r.verdict?.kind ?? null) : 'error'))).toEqual([null, 'exact_repeat']);
  }, 120_000);

  it('should refuse a budget below one session\'s fixed cost', async () => {
    await expect(NatsWorker.start({ servers: f.server.url, partitions: 2, workerId: 'w2', sessionMemory: 1000 })).rejects.toThrow(/sessionMemory|session-memory/);
  });
});
