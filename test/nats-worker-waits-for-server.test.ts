/**
 * A `loopwatch serve --nats` worker started before its server (a real nats-server, started a few seconds
 * later on the port the worker was given): it tries again with backoff, saying so briefly on stderr, then
 * joins and checks calls. Before, it exited 2 (a usage error) at once. When the wait (--nats-connect-wait)
 * is spent it exits 1: see test/serve-cli-flags.test.ts.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { CLI } from './helpers/cli.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  // every cleanup runs (a server is stopped even when a worker's stop failed), the first failure is raised
  const failed: unknown[] = [];
  for (const c of cleanup.reverse()) await c().catch((e: unknown) => void failed.push(e));
  cleanup = [];
  if (failed.length > 0) throw failed[0];
});

/** A TCP port free now (listened on and closed). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(natsServerBinary === null)('a NATS worker started before its server', () => {
  it('should try again with backoff for a few seconds, then join once the server is up and check calls', async () => {
    const port = await freePort();
    const url = `nats://127.0.0.1:${port}`;
    // credentials in the URL (a server without authentication takes them): never in a retry's line
    const child = spawn(process.execPath, [CLI, 'serve', '--nats', url.replace('://', '://alice:pw-Hq4-s3cret@'), '--partitions', '1', '--lease-ms', '600', '--nats-connect-wait', '60'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (b: Buffer) => (log += b.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanup.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    await until('the worker to try again twice', () => (log.match(/trying again/g) ?? []).length >= 3 || child.exitCode !== null, 20_000);
    expect(child.exitCode).toBe(null);
    expect(log).toMatch(new RegExp(`--nats nats://alice:\\[REDACTED\\]@127\\.0\\.0\\.1:${port}: connection refused; trying again in \\d\\.\\d s \\(attempt 1, up to --nats-connect-wait 60 s\\)`));

    const server = await startNatsServer({ port });
    cleanup.push(() => server.stop());
    await until('the worker to join', () => /partition 0 acquired/.test(log), 30_000);
    const caller = await NatsCaller.connect(url);
    cleanup.push(() => caller.close());
    const call = { tool: 'bash', args: { command: 'make' } };
    const a = await caller.check('late-1', [{ ...call, id: 'c1' }, { ...call, id: 'c2' }, { ...call, id: 'c3' }], 10_000);
    expect(a.results.map((r) => ('verdict' in r ? (r.verdict?.kind ?? null) : 'error'))).toEqual([null, null, 'exact_repeat']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // each attempt said in one line, without a stack
    expect(log.split('\n').filter((l) => l.includes('trying again')).every((l) => l.length < 200)).toBe(true);
    expect(log).not.toContain('pw-Hq4-s3cret');
  }, 90_000);
});
