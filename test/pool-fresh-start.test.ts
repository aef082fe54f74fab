/**
 * LoopPool.freshStart: a session's fresh start (a person's new prompt) in order with its calls, in a worker
 * thread and in the calling thread's shard, gives the verdicts LoopEngine.freshStart gives; false for a
 * session that is not live. (The workers run the built module: `npm test` builds first.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LoopEngine, LoopPool } from '../src/index.js';
import type { LoopPoolOptions, ToolEvent } from '../src/index.js';

const pools: LoopPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

/** Each turn: the tests run (failing alike) and a file read, the same each time. */
const turn: ToolEvent[] = [
  { tool: 'bash', args: { command: 'npm test' }, error: 'FAIL src/api.test.ts: 1 failed' },
  { tool: 'read_file', args: { path: 'src/api.ts' }, result: 'export const api = 1;' },
];

describe.each([{ workers: 1 }, { workers: 2, inlineShard: true }] as LoopPoolOptions[])('LoopPool.freshStart (%o)', (o) => {
  it('gives the verdicts of LoopEngine.freshStart, in order with the calls submitted before and after', async () => {
    const pool = new LoopPool(o);
    pools.push(pool);
    const engine = new LoopEngine();
    const sessions = ['a', 'b', 'c'];
    const got: unknown[] = [];
    const want: unknown[] = [];
    expect(await pool.freshStart('a')).toBe(false); // not live: nothing started
    for (let t = 0; t < 8; t++) {
      // session a hears a prompt before each turn, b never, c every other turn
      for (const s of sessions) {
        if (t > 0 && (s === 'a' || (s === 'c' && t % 2 === 0))) {
          const p = pool.freshStart(s); // not awaited: ordered by submission
          expect(engine.freshStart(s)).toBe(true);
          got.push(p);
        }
      }
      const batch = sessions.flatMap((session) => turn.map((e) => ({ ...e, session })));
      got.push(pool.checkBatch(batch));
      want.push(engine.checkBatch(batch));
    }
    const pooled = (await Promise.all(got)).filter((v) => v !== true);
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(want));
    // the prompts changed something: a, heard before each turn, was never broken; b was
    const flat = (want as ({ action: string } | null)[][]).flat();
    const of = (s: string) => flat.filter((_, i) => Math.floor((i % 6) / 2) === sessions.indexOf(s));
    expect(of('a').some((v) => v?.action === 'break')).toBe(false);
    expect(of('b').some((v) => v?.action === 'break')).toBe(true);
    engine.close();
  });
});
