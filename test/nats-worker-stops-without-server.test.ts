/**
 * A `loopwatch serve --nats` worker whose server goes away as it is told to stop (the server and the
 * worker killed together, as a host shutting down does): it must still exit within a bounded time, saying
 * on stderr which partitions' sessions could not be handed back, with exit code 1, and a connection lost
 * during the stop is the server's doing, not "a bug in loopwatch". Before, the worker released its
 * partitions and then waited for ever on the connection's drain (the client reconnecting without end).
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './helpers/cli.js';
import { until } from './helpers/nats-run.js';
import { natsServerBinary, startNatsServer } from './helpers/nats-server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  cleanup = [];
});

describe.skipIf(natsServerBinary === null)('a NATS worker told to stop as its server goes away', () => {
  it('should exit within 20 s with code 1, naming what it could not hand back, and no internal error', async () => {
    const server = await startNatsServer();
    cleanup.push(() => server.stop());
    const child = spawn(process.execPath, [CLI, 'serve', '--nats', server.url, '--partitions', '2', '--lease-ms', '600'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (b: Buffer) => (log += b.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    await until('the worker to take both partitions', () => /partition 1 acquired/.test(log) && /partition 0 acquired/.test(log), 30_000);

    // both at once, as a host shutting down does
    server.process.kill('SIGKILL');
    child.kill('SIGTERM');
    const started = performance.now();
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000))]);
    expect({ code, log }).toMatchObject({ code: 1 });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(log).not.toContain('internal error');
    expect(log).not.toContain('a bug in loopwatch');
    expect(log).toMatch(/SIGTERM: releasing partitions 0, 1/);
    expect(log).toMatch(/connection to the NATS server lost while stopping \(releasing the partitions; waited 5\.0 s for it\)/);
    // the partitions whose sessions were not written (which ones depends on when the server went) are named
    const stoppedLine = log.split('\n').find((l) => l.includes('stopped;')) ?? '';
    const released = [0, 1].filter((p) => log.includes(`partition ${p} released`));
    if (released.length < 2) expect(stoppedLine).toMatch(/not handed back/);
    else expect(stoppedLine).not.toMatch(/not handed back/);
  }, 60_000);
});
