/**
 * A port serve cannot listen on, said in words with what to do, as file errors are (text/file-failure.ts):
 * a port in use, a port below 1024 for a user who is not root, an address that is not this machine's; and
 * the socket codes a NATS client's message quotes (`getaddrinfo ENOTFOUND host`) said beside it. Before:
 * `cannot listen on 127.0.0.1:80 (EACCES)` and `getaddrinfo ENOTFOUND nats.invalid`, codes a person must
 * look up. Real sockets: the errors are Node's own, from listen and a real connection attempt.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectNats } from '../src/serve/nats/nats-connect.js';
import { connectProblem, listenFailure } from '../src/text/network-failure.js';
import { CLI, tempDir } from './helpers/cli.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { canDropPrivileges, unprivileged, unprivilegedFolder } from './helpers/unprivileged.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
});

/** A port taken by another listener on 127.0.0.1. */
async function takenPort(): Promise<number> {
  const s = createServer();
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

/** The error Node's listen gives for `port` on `host`. */
function listenError(port: number, host: string): Promise<unknown> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', resolve);
    s.listen(port, host, () => s.close(() => resolve(undefined)));
  });
}

describe('listen failures in words', () => {
  it('should say a port in use, with what to do, from a real EADDRINUSE', async () => {
    const port = await takenPort();
    const text = listenFailure(await listenError(port, '127.0.0.1'), { host: '127.0.0.1', port, portFlag: '--port', hostFlag: '--host' });
    expect(text).toBe(`cannot listen on 127.0.0.1:${port}: the port is in use by another program (ss -ltnp 'sport = :${port}' names it); stop it, or give another port (--port N; --port 0 takes a free one)`);
  });

  it('should say an address not on this machine, from a real EADDRNOTAVAIL (192.0.2.1: a documentation address)', async () => {
    const e = await listenError(0, '192.0.2.1');
    expect((e as NodeJS.ErrnoException).code).toBe('EADDRNOTAVAIL');
    expect(listenFailure(e, { host: '192.0.2.1', port: 7878, portFlag: '--port', hostFlag: '--host' })).toBe('cannot listen on 192.0.2.1:7878: 192.0.2.1 is not an address of this machine (ip addr lists them); give one of them (--host), or 127.0.0.1');
  });

  it('should leave an error no choice of host or port explains to its thrower', () => {
    expect(listenFailure(new Error('boom'), { host: '127.0.0.1', port: 1, portFlag: '--port', hostFlag: null })).toBeNull();
  });

  it('should say so from serve itself: a port in use, an address not here', async () => {
    const port = await takenPort();
    const busy = await loopwatchInProcess(['serve', '--port', String(port), '--no-state']);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`loopwatch serve: cannot listen on 127.0.0.1:${port}: the port is in use by another program`);
    expect(busy.stderr).not.toContain('EADDRINUSE');
    const dir = tempDir();
    const token = join(dir, 'token');
    writeFileSync(token, 'a-long-enough-bearer-token-for-serve-0123456789\n', { mode: 0o600 });
    const away = await loopwatchInProcess(['serve', '--host', '192.0.2.1', '--port', '0', '--token-file', token, '--no-state']);
    expect(away.code).toBe(2);
    expect(away.stderr).toContain('cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine');
    expect(away.stderr).not.toContain('EADDRNOTAVAIL');
  });

  it.runIf(canDropPrivileges && process.platform === 'linux')('should say a port below 1024 needs privileges, to a user without them', () => {
    const home = unprivilegedFolder('listen');
    const [cmd, ...args] = unprivileged([process.execPath, CLI, 'serve', '--port', '80', '--no-state']);
    const r = spawnSync(cmd as string, args, { cwd: home, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('loopwatch serve: cannot listen on 127.0.0.1:80: permission denied: a port below 1024 needs root or the CAP_NET_BIND_SERVICE capability; give a port from 1024 up (--port N)');
    expect(r.stderr).not.toContain('EACCES');
  });
});

describe('socket codes a client quotes, in words', () => {
  it('should say a host name DNS does not know, from a real NATS connection attempt', async () => {
    const e = await connectNats('nats://no-such-host.invalid:4222', {}, { name: 'test', waitMs: 0 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    // said as a name that does not resolve (newuser31: before, the client's `getaddrinfo ENOTFOUND ...` with these words after it)
    expect(String((e as Error).message)).toMatch(/the host name "no-such-host\.invalid" does not resolve \(no such host name: DNS does not know it;/);
  });

  it('should add nothing to a message that says it in words already, or quotes no code', () => {
    expect(connectProblem('connection refused')).toBe('connection refused');
    expect(connectProblem('connect ECONNREFUSED 127.0.0.1:4222 connection refused')).toBe('connect ECONNREFUSED 127.0.0.1:4222 connection refused');
    expect(connectProblem('connect EHOSTUNREACH 10.0.0.9:4222')).toBe('connect EHOSTUNREACH 10.0.0.9:4222 (the host cannot be reached: no route to it)');
  });
});
