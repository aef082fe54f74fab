/**
 * `--session-memory` bounds the sessions themselves, not only what they hold of their calls: a client that
 * opens sessions without end through `POST /v1/check/batch` (one small call each) gets the least recently
 * used evicted once their fixed cost (src/serve/session-cost.ts) passes the budget. Before, a session of
 * small calls was counted for about 200 bytes of its ~9 KB, so 2 MiB let 10,000 sessions live (about
 * 90 MB), bounded only by `--max-sessions`.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SESSION_HEAP_BYTES } from '../src/serve/session-cost.js';
import { CLI } from './helpers/cli.js';

/** What /healthz says of the sessions. */
interface Health {
  sessions: number;
  sessionMemory: { heldBytes: number; budgetBytes: number };
}

describe('loopwatch serve opening sessions without end', () => {
  it('should evict the least recently used sessions to keep their counted bytes within --session-memory', async () => {
    const budget = 2 * 2 ** 20;
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-state', '--no-token', '--session-memory', String(budget)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (b: Buffer) => {
          stderr += b.toString();
          const m = /listening on (http:\/\/\S+?)[;\s]/.exec(stderr);
          if (m !== null) resolve(m[1] as string);
        });
        void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
      });
      const health = async (): Promise<Health> => (await (await fetch(`${url}/healthz`)).json()) as Health;
      const batch = async (calls: unknown[]): Promise<{ results: { verdict: { kind: string } | null }[] }> => {
        const res = await fetch(`${url}/v1/check/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calls }) });
        expect(res.status).toBe(200);
        return (await res.json()) as { results: { verdict: { kind: string } | null }[] };
      };
      // a session kept busy throughout (last of each batch): never the least recently used, so never evicted, its loop still seen
      const busy = { session: 'busy', tool: 'bash', args: { command: 'pytest -q' } };
      const opened = 10_000;
      const kinds: (string | null)[] = [];
      let most = 0;
      for (let n = 0; n < opened; n += 500) {
        const calls = Array.from({ length: 500 }, (_, i) => ({ session: `s-${n + i}`, tool: 'read_file', args: { path: `src/f${(n + i) % 97}.ts` } }));
        const got = await batch([...calls, busy]);
        kinds.push(got.results[500]?.verdict?.kind ?? null);
        const h = await health();
        expect(h.sessionMemory.budgetBytes).toBe(budget);
        expect(h.sessionMemory.heldBytes).toBeLessThanOrEqual(budget);
        most = Math.max(most, h.sessions);
      }
      // each session counted for its fixed cost at least: the budget holds at most budget / that many
      expect(most).toBeLessThanOrEqual(Math.floor(budget / SESSION_HEAP_BYTES));
      expect(most).toBeGreaterThan(100);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const evicted = Number(/loopwatch_sessions_dropped_total\{reason="evicted"\} (\d+)/.exec(metrics)?.[1]);
      expect(evicted).toBeGreaterThanOrEqual(opened + 1 - most);
      expect(kinds.slice(0, 3)).toEqual([null, null, 'exact_repeat']);
      expect(kinds.every((k, i) => i < 2 || k !== null)).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
