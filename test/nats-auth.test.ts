/**
 * NATS authentication against real nats-servers that require it (configuration files written per test):
 * a user and password (in the URL, which the client alone ignores, or given apart), a token, an NKey seed
 * file, a credentials file (operator mode: JWTs made by the test, see helpers/nats-credentials.ts), and
 * TLS with the test's own CA and a client certificate. The worker and NatsCaller connect each way and a
 * call is answered; without the credentials the server refuses. The CLI takes them from the URL and its
 * flags, and prints no password, token or seed, even when the server refuses them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { NatsAuthOptions } from '../src/serve/nats/nats-auth.js';
import { plainServers, redactConnection, shownServers } from '../src/serve/nats/nats-auth.js';
import { NatsCaller } from '../src/serve/nats/nats-caller.js';
import { NatsWorker } from '../src/serve/nats/nats-worker.js';
import { CLI } from './helpers/cli.js';
import { hasOpenssl, makeOperatorSetup, makeTlsFiles, makeUserNkey } from './helpers/nats-credentials.js';
import { until } from './helpers/nats-run.js';
import { type NatsServer, natsServerBinary, startNatsServer } from './helpers/nats-server.js';

const dir = mkdtempSync(join(tmpdir(), 'loopwatch-nats-auth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  // every cleanup runs (a server is stopped even when a worker's stop failed), the first failure is raised
  const failed: unknown[] = [];
  for (const c of cleanup.reverse()) await c().catch((e: unknown) => void failed.push(e));
  cleanup = [];
  if (failed.length > 0) throw failed[0];
});

const PASSWORD = 'pw-Vx9-s3cret';
const TOKEN = 'tok-Qz7-s3cret';

async function server(config: string, scheme: 'nats' | 'tls' = 'nats'): Promise<NatsServer> {
  const s = await startNatsServer({ config, scheme });
  cleanup.push(() => s.stop());
  return s;
}

/** A worker on `servers` with `auth` owns its partition, and a caller (its own way in) has a call answered. */
async function roundTrip(servers: string, auth: NatsAuthOptions, callerServers = servers, callerAuth = auth): Promise<void> {
  const worker = await NatsWorker.start({ servers, auth, partitions: 1, leaseMs: 600, workerId: 'w' });
  cleanup.push(() => worker.stop());
  await until('the worker to own its partition', () => worker.partitions().length === 1);
  const caller = await NatsCaller.connect(callerServers, callerAuth);
  cleanup.push(() => caller.close());
  const a = await caller.check('auth-1', [{ id: 'c1', tool: 'bash', args: { command: 'ls' } }], 5_000);
  expect(a.results).toEqual([{ id: 'c1', verdict: null }]);
}

const withUserInfo = (url: string, userinfo: string): string => url.replace('://', `://${userinfo}@`);

describe('server addresses with credentials', () => {
  it('should take a user and password, or a token, out of the URLs, and show them redacted', () => {
    expect(plainServers('nats://alice:p%40ss@h:4222,nats://h2:4222')).toEqual({ urls: ['nats://h:4222', 'nats://h2:4222'], user: 'alice', pass: 'p@ss' });
    expect(plainServers(['tls://tok@h:4222'])).toEqual({ urls: ['tls://h:4222'], token: 'tok' });
    expect(shownServers('nats://alice:p%40ss@h:4222,nats://tok123@h2:4222')).toBe('nats://alice:[REDACTED]@h:4222,nats://[REDACTED]@h2:4222');
    expect(redactConnection(`refused ${TOKEN} and ${PASSWORD}`, `nats://${TOKEN}@h:1`, { pass: PASSWORD })).toBe('refused [REDACTED] and [REDACTED]');
  });
});

describe.skipIf(natsServerBinary === null)('NATS servers that require credentials', () => {
  it('should connect with a user and password in the URL or given apart, and be refused without', async () => {
    const s = await server(`authorization { user: alice, password: "${PASSWORD}" }\n`);
    await expect(NatsCaller.connect(s.url)).rejects.toThrow(/Authorization Violation/);
    await expect(NatsCaller.connect(s.url, { user: 'alice', pass: 'wrong' })).rejects.toThrow(/Authorization Violation/);
    await roundTrip(withUserInfo(s.url, `alice:${PASSWORD}`), {}, s.url, { user: 'alice', pass: PASSWORD });
  }, 30_000);

  it('should connect with a token in the URL or given apart', async () => {
    const s = await server(`authorization { token: "${TOKEN}" }\n`);
    await expect(NatsCaller.connect(s.url)).rejects.toThrow(/Authorization Violation/);
    await roundTrip(s.url, { token: TOKEN }, withUserInfo(s.url, TOKEN), {});
  }, 30_000);

  it('should connect with an NKey seed file', async () => {
    const nkey = makeUserNkey(dir);
    const s = await server(`authorization { users: [ { nkey: ${nkey.publicKey} } ] }\n`);
    await expect(NatsCaller.connect(s.url)).rejects.toThrow(/Authorization Violation/);
    await roundTrip(s.url, { nkeySeedFile: nkey.seedFile });
    await expect(NatsCaller.connect(s.url, { nkeySeedFile: join(dir, 'missing.nk') })).rejects.toThrow('cannot read the NKey seed file');
  }, 30_000);

  it('should connect with a credentials file (a user JWT and its seed) to a server in operator mode', async () => {
    const setup = makeOperatorSetup(dir);
    const s = await server(setup.config);
    await expect(NatsCaller.connect(s.url)).rejects.toThrow(/Authorization Violation/);
    await roundTrip(s.url, { credsFile: setup.credsFile });
  }, 30_000);

  it.skipIf(!hasOpenssl())('should connect over TLS with the CA given and a client certificate (the server verifies clients), and be refused without the CA', async () => {
    const tls = makeTlsFiles(dir);
    const s = await server(`tls { cert_file: "${tls.serverCert}", key_file: "${tls.serverKey}", ca_file: "${tls.ca}", verify: true }\n`, 'tls');
    // without the CA the server's certificate is not trusted (a client without a certificate is refused by
    // the server after the handshake, and the client only sees its 20 s timeout: not waited for here)
    await expect(NatsCaller.connect(s.url)).rejects.toThrow(/unable to verify the first certificate/);
    await roundTrip(s.url, { tlsCaFile: tls.ca, tlsCertFile: tls.clientCert, tlsKeyFile: tls.clientKey });
  }, 30_000);
});

/** Runs `loopwatch serve --nats ...args` until its log matches `ready` (then SIGTERM) or it exits. */
function cliWorker(args: string[], ready: RegExp): Promise<{ code: number | null; log: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--partitions', '1', '--lease-ms', '600', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  let told = false;
  return new Promise((resolve) => {
    child.stderr.on('data', (b: Buffer) => {
      log += b.toString('utf8');
      if (!told && ready.test(log)) told = child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

describe.skipIf(natsServerBinary === null)('loopwatch serve --nats with credentials', () => {
  it('should join with credentials from the URL or from --nats-user and --nats-password-file, and print no password', async () => {
    const s = await server(`authorization { user: alice, password: "${PASSWORD}" }\n`);
    const fromUrl = await cliWorker(['--nats', withUserInfo(s.url, `alice:${PASSWORD}`)], /partition 0 acquired/);
    expect(fromUrl.code).toBe(0);
    expect(fromUrl.log).toContain('NATS worker on nats://alice:[REDACTED]@127.0.0.1:');
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    const fromFlags = await cliWorker(['--nats', s.url, '--nats-user', 'alice', '--nats-password-file', passwordFile], /partition 0 acquired/);
    expect(fromFlags.code).toBe(0);
    // refused: a usage error, the password nowhere in what is printed
    const refused = await cliWorker(['--nats', withUserInfo(s.url, `alice:${PASSWORD}x`)], /$^/);
    expect(refused.code).toBe(2);
    expect(refused.log).toContain('Authorization Violation');
    expect(refused.log).toContain('alice:[REDACTED]@');
    for (const r of [fromUrl, fromFlags, refused]) expect(r.log).not.toContain(PASSWORD);
  }, 60_000);

  it('should join with a token file, an NKey seed file or a credentials file, and print neither token nor seed', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const t = await server(`authorization { token: "${TOKEN}" }\n`);
    const token = await cliWorker(['--nats', t.url, '--nats-token-file', tokenFile], /partition 0 acquired/);
    const tokenInUrl = await cliWorker(['--nats', withUserInfo(t.url, `${TOKEN}x`)], /$^/);
    expect([token.code, tokenInUrl.code]).toEqual([0, 2]);
    expect(tokenInUrl.log).toContain('nats://[REDACTED]@127.0.0.1');
    const nkey = makeUserNkey(dir, 'cli.nk');
    const n = await server(`authorization { users: [ { nkey: ${nkey.publicKey} } ] }\n`);
    const seeded = await cliWorker(['--nats', n.url, '--nats-nkey', nkey.seedFile], /partition 0 acquired/);
    const setup = makeOperatorSetup(dir);
    const o = await server(setup.config);
    const creds = await cliWorker(['--nats', o.url, '--nats-creds', setup.credsFile], /partition 0 acquired/);
    expect([seeded.code, creds.code]).toEqual([0, 0]);
    for (const r of [token, tokenInUrl, seeded, creds]) expect(r.log).not.toMatch(new RegExp(`${TOKEN}|${nkey.seed}|${setup.seed}`));
  }, 60_000);

  it.skipIf(!hasOpenssl())('should join over TLS with --nats-tls-ca, --nats-tls-cert and --nats-tls-key', async () => {
    const tls = makeTlsFiles(mkdtempSync(join(dir, 'tls-')));
    const s = await server(`tls { cert_file: "${tls.serverCert}", key_file: "${tls.serverKey}", ca_file: "${tls.ca}", verify: true }\n`, 'tls');
    const r = await cliWorker(['--nats', s.url, '--nats-tls-ca', tls.ca, '--nats-tls-cert', tls.clientCert, '--nats-tls-key', tls.clientKey], /partition 0 acquired/);
    expect(r.code).toBe(0);
    expect((await cliWorker(['--nats', s.url, '--nats-tls-cert', tls.clientCert], /$^/)).log).toContain('--nats-tls-cert needs --nats-tls-key');
  }, 60_000);
});
