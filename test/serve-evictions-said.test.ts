/**
 * `loopwatch serve` says on stderr when it evicts live sessions (the least recently used, past
 * --session-memory or --max-sessions): an evicted session's loops are watched afresh, and an operator
 * must not learn that only from a counter. Evictions are counted together and said at most once a minute
 * (the rest at stop), and the lines add up to /metrics' count. Before, nothing was said at all.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { until } from './helpers/nats-run.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

const batch = (from: number, n: number): string => JSON.stringify({ calls: Array.from({ length: n }, (_, i) => ({ session: `m${from + i}`, tool: 'bash', args: { command: 'ls' } })) });

describe('loopwatch serve evicting sessions', () => {
  it('should say the evictions on stderr, at most a line a minute, the rest at stop, adding up to /metrics', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-state', '--no-token', '--session-memory', '1048576'], { stdio: ['ignore', 'ignore', 'pipe'] });
    cleanup.push(() => child.kill('SIGKILL'));
    let log = '';
    child.stderr.on('data', (b: Buffer) => (log += b.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await until('serve to listen', () => /listening on (http:\/\/[^;\s]+)/.test(log), 30_000);
    const url = /listening on (http:\/\/[^;\s]+)/.exec(log)?.[1] as string;
    const post = (body: string): Promise<number> => fetch(`${url}/v1/check/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status);
    expect(await post(batch(0, 2000))).toBe(200);
    await until('the eviction line', () => /sessions evicted/.test(log), 10_000);
    const evicted = (text: string): number[] => [...text.matchAll(/loopwatch serve: (\d+) sessions? evicted \(the least recently used: --session-memory full or --max-sessions reached; \d+ sessions live, [\d,]+ of 1,048,576 bytes held\)/g)].map((m) => Number(m[1]));
    expect(evicted(log)).toHaveLength(1);
    // more within the minute: counted, not said yet
    expect(await post(batch(2000, 2000))).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(evicted(log)).toHaveLength(1);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const counted = Number(/^loopwatch_sessions_dropped_total\{reason="evicted"\} (\d+)$/m.exec(metrics)?.[1]);
    expect(counted).toBeGreaterThan(3000);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const said = evicted(log);
    expect(said).toHaveLength(2);
    expect((said[0] as number) + (said[1] as number)).toBe(counted);
  }, 60_000);
});
