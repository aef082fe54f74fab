/**
 * An operator running several `loopwatch serve --nats` workers sees partitions move and must be able to tell
 * why: each worker says, one line each on stderr, when it takes or gives up a partition and the cause (a
 * worker joined: over its share; a worker stopped: handed back; a worker stopped answering: its lease
 * stale), and which workers joined or went; and with `--metrics-port` it serves the Prometheus series
 * `serve` serves (calls checked, verdicts by kind, sessions live) plus partitions owned and moves by reason.
 * Real processes on a real nats-server. Before, a worker said only `partition 3 acquired`, and had no
 * /metrics at all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { CLI } from './helpers/cli.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

/** A worker process and what it has said on stderr so far. */
interface Worker {
  readonly child: ChildProcess;
  log(): string;
  exited: Promise<number | null>;
}

function worker(url: string, id: string, extra: string[] = []): Worker {
  const child = spawn(process.execPath, [CLI, 'serve', '--nats', url, '--partitions', '4', '--lease-ms', '600', '--worker-id', id, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (b: Buffer) => (log += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, log: () => log, exited };
}

describe.skipIf(natsServerBinary === null)('a NATS worker says why partitions move, and serves /metrics', () => {
  it('should say a join, a stop and a worker that stopped answering, and count them in /metrics', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    const dir = mkdtempSync(join(tmpdir(), 'lw-moves-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'a-token-of-the-test-0123456789\n', { mode: 0o600 });
    const a = worker(server.url, 'wa', ['--metrics-port', '0', '--token-file', tokenFile]);
    await until('wa to take every partition', () => /partition 3 acquired: free \(no worker held it\)/.test(a.log()), 30_000);
    const base = /GET \/metrics and \/healthz on (http:\/\/127\.0\.0\.1:\d+) \(\/metrics needs the bearer token\)/.exec(a.log())?.[1] as string;
    expect(base).toBeDefined();

    // a worker joins: wa gives up what is over its share, and says why
    const b = worker(server.url, 'wb');
    await until('wa to hand two partitions to wb', () => (a.log().match(/released: over this worker's share \(2 of the partitions among 2 live workers\)/g) ?? []).length === 2, 30_000);
    expect(a.log()).toMatch(/worker "wb" joined: 2 live workers/);
    await until('wb to take them', () => (b.log().match(/acquired: handed back by worker "wa"/g) ?? []).length === 2, 30_000);

    // it stops (SIGTERM): it hands them back, and wa says who did
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.log().match(/released: this worker is stopping \(sessions written, handed back\)/g)).toHaveLength(2);
    await until('wa to take them back', () => (a.log().match(/acquired: handed back by worker "wb"/g) ?? []).length === 2, 30_000);
    expect(a.log()).toMatch(/worker "wb" stopped: 1 live worker/);

    // another joins and stops answering (SIGKILL): its lease goes stale, and wa says so
    const c = worker(server.url, 'wc');
    await until('wc to take two partitions', () => (c.log().match(/ acquired: /g) ?? []).length === 2, 30_000);
    c.child.kill('SIGKILL');
    await until('wa to take wc\'s partitions', () => (a.log().match(/acquired: worker "wc" stopped answering \(its lease not renewed for \d+\.\d s\)/g) ?? []).length === 2, 30_000);
    expect(a.log()).toMatch(/worker "wc" stopped answering \(no heartbeat for \d+\.\d s\): 1 live worker/);

    // calls through the worker: counted as serve counts them
    const caller = await NatsCaller.connect(server.url);
    cleanup.push(() => caller.close());
    for (let i = 0; i < 3; i++) await caller.check('s-1', [{ id: `c${i}`, tool: 'bash', args: { command: 'pytest -q' } }]);

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer a-token-of-the-test-0123456789' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^loopwatch_checks_total 3$/m);
    expect(text).toMatch(/^loopwatch_verdicts_total\{kind="exact_repeat",action="warn"\} 1$/m);
    expect(text).toMatch(/^loopwatch_sessions_live 1$/m);
    expect(text).toMatch(/^loopwatch_nats_partitions_owned 4$/m);
    expect(text).toMatch(/^loopwatch_nats_partition_moves_total\{move="acquired",reason="free"\} 6$/m);
    expect(text).toMatch(/^loopwatch_nats_partition_moves_total\{move="acquired",reason="stale"\} 2$/m);
    expect(text).toMatch(/^loopwatch_nats_partition_moves_total\{move="released",reason="share"\} 4$/m);
    expect(text).toMatch(/^loopwatch_nats_connected 1$/m);
    expect(text).toMatch(/^loopwatch_process_resident_memory_bytes \d+/m);
    const health = (await (await fetch(`${base}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', partitions: [0, 1, 2, 3], sessions: 1, calls: 3, verdicts: 1 });

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(a.log().match(/released: this worker is stopping/g)).toHaveLength(4);
  }, 120_000);

  it('should refuse --metrics-port on a port in use, and a token flag without --metrics-port, with exit 2', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => taken.close(() => r())));
    const port = (taken.address() as { port: number }).port;
    const busy = worker(server.url, 'wx', ['--metrics-port', String(port), '--no-token']);
    expect(await busy.exited).toBe(2);
    expect(busy.log()).toContain(`--metrics-port ${port}: cannot listen on 127.0.0.1:${port}: the port is in use by another program`);
    expect(busy.log()).not.toContain('EADDRINUSE');
    const stray = worker(server.url, 'wy', ['--no-token']);
    expect(await stray.exited).toBe(2);
    expect(stray.log()).toContain("--no-token is for a NATS worker's /metrics: give --metrics-port N too");
  }, 60_000);
});
