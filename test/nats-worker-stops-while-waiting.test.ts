/**
 * A NATS worker told to stop (SIGTERM) while it is still trying to reach a server at start stops at once,
 * saying so, exit 0 (it held nothing). Before, the signal was held until --nats-connect-wait ran out: 30 s
 * here, 60 s by default, past the stop timeout of most supervisors (Kubernetes: 30 s, then SIGKILL).
 * A real process, a real port where nothing listens.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';

/** A port on 127.0.0.1 where nothing listens (taken, then let go). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

it('should stop at once on SIGTERM while it waits for a NATS server, saying so, exit 0', async () => {
  const url = `nats://127.0.0.1:${await closedPort()}`;
  const child = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--nats-connect-wait', '30'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (b: Buffer) => (log += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!log.includes('trying again') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(log).toContain('connection refused; trying again');
  const sent = Date.now();
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await exited;
  clearTimeout(late);
  expect(Date.now() - sent).toBeLessThan(5_000);
  expect(code).toBe(0);
  expect(log).toContain(`loopwatch serve: SIGTERM: stopped before a NATS server was reached at ${url}; nothing was held`);
}, 40_000);
