/**
 * The NATS connection flags of `loopwatch serve --nats`: credentials, TLS and the wait for a server at start,
 * as a table (name, value, help: serve-flags.ts puts them in serve's flag table, as NATS-only flags, so the
 * parser, the checks and `serve --help` take them from there) and their reading. A password or token
 * is read from a file (a flag's value shows in `ps`); a URL may hold them too (nats-auth.ts).
 */
import type { NatsAuthOptions } from '../serve/nats/nats-auth.js';
import { type ParsedFlags, integerFlag, stringOf } from './flags.js';
import { UsageError } from './usage-error.js';
import { MAX_SECRET_FILE_BYTES, readBoundedFile, readFailure } from '../formats/regular-file.js';

/** One connection flag: its name, its value's name in help, and its help lines. */
export interface NatsConnectionFlag {
  readonly name: string;
  readonly value: string;
  readonly help: readonly string[];
}

/** The connection flags, in the order help lists them. */
export const NATS_CONNECTION_FLAGS: readonly NatsConnectionFlag[] = [
  { name: 'nats-user', value: 'USER', help: ['user name, with --nats-password-file'] },
  { name: 'nats-password-file', value: 'FILE', help: ['the user\'s password: the file\'s first line'] },
  { name: 'nats-token-file', value: 'FILE', help: ['a token: the file\'s first line'] },
  { name: 'nats-creds', value: 'FILE', help: ['user JWT credentials (a .creds file)'] },
  { name: 'nats-nkey', value: 'FILE', help: ['a file holding a user NKey seed (SU...)'] },
  { name: 'nats-tls-ca', value: 'FILE', help: ['CA of the server\'s certificate (PEM); TLS is then required'] },
  { name: 'nats-tls-cert', value: 'FILE', help: ['client certificate (PEM), with --nats-tls-key, for a server that verifies clients'] },
  { name: 'nats-tls-key', value: 'FILE', help: ['the client certificate\'s private key (PEM)'] },
  { name: 'nats-connect-wait', value: 'S', help: ['keep trying to reach the server at start for S seconds, then exit 1', '(default: 60; 0: one attempt)'] },
];

/** The first line of a secret's file (a password, a token); a UsageError naming the flag, never the content. */
function secretLine(flag: string, path: string): string {
  let text: string;
  try {
    text = readBoundedFile(path, MAX_SECRET_FILE_BYTES).toString('utf8');
  } catch (e) {
    throw new UsageError(`--${flag} ${path}: cannot read the file (${readFailure(e)})`);
  }
  const line = (text.split(/\r?\n/)[0] ?? '').trim();
  if (line === '') throw new UsageError(`--${flag} ${path}: the first line is empty`);
  return line;
}

/** The credentials and TLS files the flags name (a password or token read from its file now). Throws UsageError. */
export function natsAuth(v: ParsedFlags['values']): NatsAuthOptions {
  const f = (name: string): string | undefined => stringOf(v, name);
  const user = f('nats-user');
  const passwordFile = f('nats-password-file');
  if ((user === undefined) !== (passwordFile === undefined)) throw new UsageError('--nats-user and --nats-password-file go together');
  if (f('nats-tls-cert') !== undefined && f('nats-tls-key') === undefined) throw new UsageError('--nats-tls-cert needs --nats-tls-key (the certificate\'s private key)');
  if (f('nats-tls-key') !== undefined && f('nats-tls-cert') === undefined) throw new UsageError('--nats-tls-key needs --nats-tls-cert');
  const token = f('nats-token-file');
  const files: [keyof NatsAuthOptions, string][] = [['credsFile', 'nats-creds'], ['nkeySeedFile', 'nats-nkey'], ['tlsCaFile', 'nats-tls-ca'], ['tlsCertFile', 'nats-tls-cert'], ['tlsKeyFile', 'nats-tls-key']];
  return {
    ...(user === undefined || passwordFile === undefined ? {} : { user, pass: secretLine('nats-password-file', passwordFile) }),
    ...(token === undefined ? {} : { token: secretLine('nats-token-file', token) }),
    ...Object.fromEntries(files.filter(([, flag]) => f(flag) !== undefined).map(([key, flag]) => [key, f(flag)])),
  };
}

/** --nats-connect-wait in ms (given in seconds, 0 to a day; default 60 s). */
export function connectWaitMs(v: ParsedFlags['values']): number {
  return integerFlag('--nats-connect-wait', stringOf(v, 'nats-connect-wait'), 60, 0, 86_400) * 1000;
}
