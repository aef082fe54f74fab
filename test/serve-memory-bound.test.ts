/**
 * `loopwatch serve` stays within its memory whatever its callers send: a call's args are capped at the
 * door (as the hooks cap a payload, then as a whole), and the sessions' calls together at
 * `--session-memory` (a quarter of the heap by default), the least recently used sessions evicted past it.
 * Reached for real: a server with a 128 MB heap fed 3.9 MB calls and thousands of 60 KB calls over 300
 * sessions stays up and answers every one. Before, a session kept about 11 calls' args whole: a 512 MB
 * heap aborted after ~135 calls of 3.9 MB, losing every session.
 */
import { Agent, request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';

/** POSTs a call; the status, or the error's code. */
function post(url: URL, agent: Agent, body: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: '/v1/check', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end(body);
  });
}

describe('loopwatch serve with a small heap', () => {
  it('should stay up and answer every call when fed 3.9 MB calls and 300 sessions of 60 KB calls with a 128 MB heap', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=128', CLI, 'serve', '--port', '0', '--no-state', '--no-token'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        child.stderr.on('data', () => {
          const m = /listening on (http:\/\/\S+?)[;\s]/.exec(stderr);
          if (m !== null) resolve(new URL(m[1] as string));
        });
        void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
      });
      // (bodies made as they are sent: a client busy for seconds between two requests would reuse a
      // kept-alive connection the server has closed meanwhile)
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const statuses = new Map<number | string, number>();
      const count = (s: number | string): void => void statuses.set(s, (statuses.get(s) ?? 0) + 1);
      // calls of 3.9 MB, as the probe sent them: 40 of them over 10 sessions
      const huge = 'h'.repeat(3_900_000);
      for (let i = 0; i < 40; i++) count(await post(url, agent, JSON.stringify({ session: `huge-${i % 10}`, tool: 'write', args: { path: `f${i}`, content: `${i}${huge}` } })));
      // 300 sessions x 12 calls of 60 KB args (under the door's cap: kept whole), 4 at a time
      const field = (s: number, i: number, k: number): string => `${s}.${i}.${k}.`.padEnd(15_000, 'abcdefghij');
      const wide = (n: number): string => ((s, i) => JSON.stringify({ session: `wide-${s}`, tool: 'edit', args: { a: field(s, i, 0), b: field(s, i, 1), c: field(s, i, 2), d: field(s, i, 3) } }))(n % 300, Math.floor(n / 300));
      const calls = 12 * 300;
      let next = 0;
      await Promise.all([0, 1, 2, 3].map(async () => {
        while (next < calls) count(await post(url, agent, wide(next++)));
      }));
      expect([...statuses]).toEqual([[200, 40 + calls]]);
      // still detecting: a loop in a fresh session is seen on its third identical call
      const loop = JSON.stringify({ session: 'after', tool: 'bash', args: { command: 'pytest -q' } });
      for (let i = 0; i < 2; i++) await post(url, agent, loop);
      const third = await fetch(`${url.origin}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loop });
      expect(((await third.json()) as { verdict: { kind: string } | null }).verdict?.kind).toBe('exact_repeat');
      const health = (await (await fetch(`${url.origin}/healthz`)).json()) as { sessionMemory: { heldBytes: number; budgetBytes: number } };
      expect(health.sessionMemory.heldBytes).toBeLessThanOrEqual(health.sessionMemory.budgetBytes);
      const metrics = await (await fetch(`${url.origin}/metrics`)).text();
      expect(Number(/loopwatch_sessions_dropped_total\{reason="evicted"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(0);
      agent.destroy();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(stderr).not.toMatch(/heap out of memory|FATAL/);
  }, 180_000);
});
