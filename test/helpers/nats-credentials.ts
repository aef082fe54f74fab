/**
 * Credentials for the NATS authentication tests, made at test time in a folder the caller removes: a CA,
 * a server certificate for 127.0.0.1 and a client certificate (openssl, EC P-256, valid one day), user
 * NKeys (@nats-io/nkeys), and a decentralized setup (an operator, an account with JetStream, a user) with
 * the user's credentials file, the JWTs signed here with NKeys as `nsc` would sign them (no `nsc` needed).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type KeyPair, createAccount, createOperator, createUser } from '@nats-io/nkeys';

/** PEM files of a test CA, a server certificate (127.0.0.1) and a client certificate, in `dir`. */
export interface TlsFiles {
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

/** Whether openssl can be run here. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes a CA and the server and client certificates it signs, in `dir`. */
export function makeTlsFiles(dir: string): TlsFiles {
  const f = (name: string): string => join(dir, name);
  const ssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '1', '-subj', '/CN=loopwatch test CA');
  const signed = (name: string, subject: string, ext: string): void => {
    writeFileSync(f(`${name}.ext`), ext);
    ssl('req', ...ec, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', subject);
    ssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f(`${name}.pem`), '-days', '1', '-extfile', f(`${name}.ext`));
  };
  signed('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  signed('client', '/CN=loopwatch worker', 'extendedKeyUsage=clientAuth\n');
  return { ca: f('ca.pem'), serverCert: f('server.pem'), serverKey: f('server.key'), clientCert: f('client.pem'), clientKey: f('client.key') };
}

/** A user NKey: its public key (for the server's config) and a file holding its seed. */
export function makeUserNkey(dir: string, name = 'user.nk'): { publicKey: string; seedFile: string; seed: string } {
  const kp = createUser();
  const seed = new TextDecoder().decode(kp.getSeed());
  const seedFile = join(dir, name);
  writeFileSync(seedFile, `${seed}\n`, { mode: 0o600 });
  return { publicKey: kp.getPublicKey(), seedFile, seed };
}

/** A NATS JWT (v2 claims) of `subject`, issued and signed by `issuer`. */
function natsJwt(issuer: KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const claims = { jti: `${name}-${subject.slice(0, 12)}`, iat: Math.floor(Date.now() / 1000), iss: issuer.getPublicKey(), name, sub: subject, nats: { ...nats, version: 2 } };
  const body = `${b64({ typ: 'JWT', alg: 'ed25519-nkey' })}.${b64(claims)}`;
  return `${body}.${Buffer.from(issuer.sign(Buffer.from(body))).toString('base64url')}`;
}

/**
 * An operator, an account with JetStream and a system account, and one user: the server's configuration
 * (operator mode, the accounts preloaded in memory) and the user's credentials file in `dir`.
 */
export function makeOperatorSetup(dir: string): { config: string; credsFile: string; seed: string } {
  const operator = createOperator();
  const account = createAccount();
  const system = createAccount();
  const user = createUser();
  const limits = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
  const perms = { pub: {}, sub: {} };
  const accountJwt = natsJwt(operator, account.getPublicKey(), 'loopwatch', { type: 'account', limits: { ...limits, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 }, default_permissions: perms });
  const systemJwt = natsJwt(operator, system.getPublicKey(), 'SYS', { type: 'account', limits, default_permissions: perms });
  const userJwt = natsJwt(account, user.getPublicKey(), 'worker', { type: 'user', ...perms, subs: -1, data: -1, payload: -1 });
  const seed = new TextDecoder().decode(user.getSeed());
  const credsFile = join(dir, 'worker.creds');
  writeFileSync(credsFile, `-----BEGIN NATS USER JWT-----\n${userJwt}\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${seed}\n------END USER NKEY SEED------\n`, { mode: 0o600 });
  const config = [
    `operator: "${natsJwt(operator, operator.getPublicKey(), 'test operator', { type: 'operator' })}"`,
    `system_account: ${system.getPublicKey()}`,
    'resolver: MEMORY',
    `resolver_preload: {\n  ${account.getPublicKey()}: "${accountJwt}"\n  ${system.getPublicKey()}: "${systemJwt}"\n}`,
    '',
  ].join('\n');
  return { config, credsFile, seed };
}
