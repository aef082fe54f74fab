/**
 * How a worker or a caller proves itself to a NATS server, and how a server address is shown without its
 * secrets. The NATS ways: a user and password (in the URL, `nats://user:pass@host:4222`, or given apart), a
 * token (`nats://token@host:4222`, or given apart), a credentials file (a user JWT and its NKey seed, as
 * `nsc` writes them), an NKey seed file, and TLS (a CA to trust a server's certificate, and a client
 * certificate and key when the server asks for one). This module reads no file and loads no NATS client:
 * nats-connect.ts does, when a connection is made.
 */
import { REDACTED, redactSecrets } from '../../text/redact.js';

/** Credentials and TLS files for a NATS connection; secrets in a URL's user part are read too. */
export interface NatsAuthOptions {
  /** User name (with `pass`); a user and password in a server URL count when this is not given. */
  readonly user?: string;
  /** Password of `user`. */
  readonly pass?: string;
  /** Token; a URL's user part without a password counts as one when this is not given. */
  readonly token?: string;
  /** A credentials file (`.creds`: a user JWT and its NKey seed). */
  readonly credsFile?: string;
  /** A file holding a user NKey seed (`SU...`), for a server that knows the user by its public NKey. */
  readonly nkeySeedFile?: string;
  /** A PEM file of the certificate authorities that signed the server's certificate (TLS is then required). */
  readonly tlsCaFile?: string;
  /** A PEM client certificate, for a server that verifies clients (with `tlsKeyFile`). */
  readonly tlsCertFile?: string;
  /** The PEM private key of `tlsCertFile`. */
  readonly tlsKeyFile?: string;
}

/** Server URLs without their user parts, and the user, password or token those held. */
export interface PlainServers {
  readonly urls: string[];
  readonly user?: string;
  readonly pass?: string;
  readonly token?: string;
}

/** The servers of `servers` (a URL, URLs separated by commas, or a list), each without its user part. */
export function plainServers(servers: string | readonly string[]): PlainServers {
  const list = (typeof servers === 'string' ? servers.split(',') : [...servers]).map((s) => s.trim()).filter((s) => s !== '');
  let found: { user?: string; pass?: string; token?: string } = {};
  const urls = list.map((u) => {
    const m = /^([a-z][a-z0-9+.-]*:\/\/)([^@/]*)@(.*)$/i.exec(u);
    if (m === null) return u;
    const [, scheme, userinfo, rest] = m as unknown as [string, string, string, string];
    if (found.user === undefined && found.token === undefined) {
      const colon = userinfo.indexOf(':');
      found = colon < 0 ? { token: decode(userinfo) } : { user: decode(userinfo.slice(0, colon)), pass: decode(userinfo.slice(colon + 1)) };
    }
    return `${scheme}${rest}`;
  });
  return { urls, ...found };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A URL's user part: a scheme (`[a-z][a-z0-9+.-]*://`), then what comes before `@`. A scheme is tried only
 * from the start of a run of scheme characters (the digits and `+.-` before its first letter are `lead`):
 * tried from each letter of a long run that is no scheme, `/([a-z][a-z0-9+.-]*:\/\/)([^@/,\s]*)@/gi` read
 * the rest of the run from each (64 KB of letters took 12 s); it finds what this finds.
 */
const USER_PART = /(?<![a-z0-9+.-])([0-9+.-]*)([a-z][a-z0-9+.-]*:\/\/)([^@/,\s]*)@/gi;

/**
 * `servers` as it may be printed: a URL's password or token replaced by `[REDACTED]`, the user name kept.
 * Time linear in the text's length (an error message, a `--nats` flag: neither is capped).
 */
export function shownServers(servers: string | readonly string[]): string {
  const text = typeof servers === 'string' ? servers : servers.join(',');
  return redactSecrets(text.replace(USER_PART, (_m, lead: string, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${lead}${scheme}${REDACTED}@` : `${lead}${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`;
  }));
}

/**
 * `text` (an error message, a log line) with every secret of the connection replaced by `[REDACTED]`: the
 * password and token given or found in the URLs, and whatever the shared redaction rules find.
 */
export function redactConnection(text: string, servers: string | readonly string[], auth: NatsAuthOptions = {}): string {
  const found = plainServers(servers);
  let out = shownServers(text);
  for (const secret of [auth.pass, auth.token, found.pass, found.token]) {
    if (secret !== undefined && secret.length >= 3) out = out.split(secret).join(REDACTED);
  }
  return redactSecrets(out);
}
