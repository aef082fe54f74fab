/**
 * `loopwatch serve` stopped by SIGTERM under a load of keep-alive requests answers every request that
 * reached it: those in flight as usual, those arriving on open connections meanwhile with 503 and
 * `Connection: close`; no connection is reset under a request. Before, about 17 of 6,000 requests were
 * reset (the server closed connections it took for idle while a request was on its way).
 */
import { Agent, request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { startServe } from './helpers/serve-process.js';

/** One POST on `agent`: the status and whether the server said it closes the connection, or the error's code. */
function call(url: URL, agent: Agent, body: string): Promise<{ status: number; close: boolean } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: '/v1/check', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, close: res.headers.connection === 'close' }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

describe('loopwatch serve on SIGTERM under keep-alive load', () => {
  it('should answer every request that reached it (200 or 503 with Connection: close), resetting none', async () => {
    const dir = tempDir();
    try {
      const server = await startServe(['--port', '0', '--no-token', '--state-dir', dir]);
      const url = new URL(server.url);
      const clients = 48;
      const outcomes: string[] = [];
      let answered = 0;
      let signalled = false;
      const loops = Array.from({ length: clients }, async (_, c) => {
        // one connection per client, kept alive, one request at a time: as an SDK's HTTP client does
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (let i = 0; ; i++) {
            const r = await call(url, agent, JSON.stringify({ session: `load-${c}`, id: String(i), tool: 'bash', args: { command: `make target-${i % 7}` } }));
            if ('error' in r) {
              outcomes.push(`error ${r.error}`);
              return;
            }
            answered++;
            if (r.status === 503) {
              outcomes.push(r.close ? '503 close' : '503 kept open');
              return; // the server said it stops: go elsewhere, as a client should
            }
            if (r.status !== 200) {
              outcomes.push(`status ${r.status}`);
              return;
            }
            if (!signalled && answered >= 3_000) {
              signalled = true;
              server.child.kill('SIGTERM');
            }
          }
        } finally {
          agent.destroy();
        }
      });
      await Promise.all(loops);
      expect(await server.exited).toBe(0);
      expect(answered).toBeGreaterThan(3_000);
      // every client ends on a 503 that closes its connection: none was reset or refused mid-request
      expect(outcomes.filter((o) => o !== '503 close')).toEqual([]);
      expect(outcomes).toHaveLength(clients);
      expect(server.stderr()).toMatch(new RegExp(`stopped; ${clients} sessions written`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
