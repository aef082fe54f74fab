/**
 * Connecting to NATS with the credentials of nats-auth.ts: the files read here (each named in the error
 * when it cannot be read, never its content), a URL's user part taken out of the address and given as the
 * user and password or token (the client itself ignores it), and the first connection tried again with
 * backoff while the server cannot be reached (a worker started before its server), up to a bound.
 */
import { MAX_SECRET_FILE_BYTES, readBoundedFile, readFailure } from '../../formats/regular-file.js';
import { type Authenticator, type NatsConnection, type NodeConnectionOptions, connect, credsAuthenticator, nkeyAuthenticator } from '@nats-io/transport-node';
import { type NatsAuthOptions, plainServers, redactConnection } from './nats-auth.js';
import { connectProblem } from '../../text/network-failure.js';
import { NatsUnreachableError } from '../../errors.js';
import { hostOf, unresolvedHosts } from './unresolved-hosts.js';

/** How the first connection is made. */
export interface ConnectPlan {
  /** The client's name, as the server shows it. */
  readonly name: string;
  /** How long to keep trying to reach a server that cannot be reached, in ms (0: one attempt). @default 0 */
  readonly waitMs?: number;
  /** Hears each failed attempt that will be tried again (its message redacted) and the wait before the next. */
  readonly onRetry?: (attempt: number, delayMs: number, problem: string) => void;
  /**
   * Ends the trying when aborted (the worker was signalled to stop while no server could be reached):
   * rejects with a NatsConnectStoppedError, at once, whatever attempt or wait is under way; a connection
   * that comes after is closed. Before, a SIGTERM was held until --nats-connect-wait ran out (60 s).
   */
  readonly signal?: AbortSignal;
  /** Passed to the client as they are (reconnection policy and the like). */
  readonly client?: Omit<NodeConnectionOptions, 'servers' | 'name' | 'user' | 'pass' | 'token' | 'authenticator' | 'tls'>;
}

/** The first wait between two attempts, in ms; it doubles up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 250;
/** The longest wait between two attempts, in ms. */
export const RETRY_MAX_MS = 5_000;

/** The server could not be reached within the wait (errors.ts, where every error with a code is listed). */
export { NatsUnreachableError };

/** The worker was told to stop (ConnectPlan.signal) before a server could be reached. */
export class NatsConnectStoppedError extends Error {
  constructor() {
    super('stopped before a NATS server was reached');
    this.name = 'NatsConnectStoppedError';
  }
}

/** Settles (never resolves) with a NatsConnectStoppedError when `signal` is aborted; never, without one. */
function stoppedBy(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal === undefined) return;
    if (signal.aborted) return reject(new NatsConnectStoppedError());
    signal.addEventListener('abort', () => reject(new NatsConnectStoppedError()), { once: true });
  });
}

/** A file's bytes; an Error naming the file (`what`) when it cannot be read. */
function readNamed(path: string, what: string): Uint8Array {
  try {
    return readBoundedFile(path, MAX_SECRET_FILE_BYTES);
  } catch (e) {
    throw new Error(`cannot read the ${what} ${JSON.stringify(path)} (${readFailure(e)})`);
  }
}

/** The client's options for `servers` and `auth` (files read now). */
export function connectionOptions(servers: string | readonly string[], auth: NatsAuthOptions = {}): NodeConnectionOptions {
  const plain = plainServers(servers);
  const user = auth.user ?? plain.user;
  const pass = auth.user !== undefined ? auth.pass : plain.pass;
  const token = auth.token ?? (auth.user === undefined ? plain.token : undefined);
  const authenticators: Authenticator[] = [];
  if (auth.credsFile !== undefined) authenticators.push(credsAuthenticator(readNamed(auth.credsFile, 'credentials file')));
  if (auth.nkeySeedFile !== undefined) {
    const seed = new TextDecoder().decode(readNamed(auth.nkeySeedFile, 'NKey seed file'));
    const line = seed.split(/\r?\n/).map((l) => l.trim()).find((l) => /^S[A-Z2-7]{50,}$/.test(l));
    if (line === undefined) throw new Error(`the NKey seed file ${JSON.stringify(auth.nkeySeedFile)} holds no seed (a line starting with S, as nk -gen user writes)`);
    authenticators.push(nkeyAuthenticator(new TextEncoder().encode(line)));
  }
  const tls = auth.tlsCaFile !== undefined || auth.tlsCertFile !== undefined || plain.urls.some((u) => u.startsWith('tls://'));
  // the client gives Node no server name for an address it was given (only for those the cluster tells of),
  // and Node then checks the certificate against "localhost": with one host, check against it
  const hosts = new Set(plain.urls.map(hostOf));
  const host = hosts.size === 1 ? [...hosts][0] : undefined;
  return {
    servers: plain.urls,
    ...(user === undefined ? {} : { user, ...(pass === undefined ? {} : { pass }) }),
    ...(token === undefined ? {} : { token }),
    ...(authenticators.length === 0 ? {} : { authenticator: authenticators }),
    ...(tls
      ? {
          tls: {
            ...(host === undefined ? {} : { host }),
            ...(auth.tlsCaFile === undefined ? {} : { ca: new TextDecoder().decode(readNamed(auth.tlsCaFile, 'TLS CA file')) }),
            ...(auth.tlsCertFile === undefined ? {} : { cert: new TextDecoder().decode(readNamed(auth.tlsCertFile, 'TLS certificate file')) }),
            ...(auth.tlsKeyFile === undefined ? {} : { key: new TextDecoder().decode(readNamed(auth.tlsKeyFile, 'TLS key file')) }),
          },
        }
      : {}),
  };
}

/** Whether a failed first connection may succeed later: the server was not there (refused, timed out), not a refusal of who we are. */
function unreachable(e: unknown): boolean {
  const { name, message } = e as Error;
  if (name === 'AuthorizationError' || name === 'UserAuthenticationExpiredError') return false;
  return /refused|time[d ]?out|ECONN|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|socket hang up/i.test(message);
}

/**
 * Connects to `servers` with `auth`. While no server can be reached it tries again, waiting RETRY_FIRST_MS,
 * then twice as long each time up to RETRY_MAX_MS, for `plan.waitMs` in all; then rejects with a
 * NatsUnreachableError. When no server's host name resolves (DNS says there is no such name: ENOTFOUND)
 * each retry and the last error say so in those words (a typo, or a container whose name its network's DNS
 * knows only once it runs: tried again for the wait, as an address that refuses is). Any other failure (credentials
 * refused, a bad file, TLS) rejects at once. Every message is redacted (passwords and tokens of the URLs
 * and `auth`).
 */
export async function connectNats(servers: string | readonly string[], auth: NatsAuthOptions, plan: ConnectPlan): Promise<NatsConnection> {
  const options = { ...plan.client, ...connectionOptions(servers, auth), name: plan.name };
  const redact = (text: string): string => redactConnection(text, servers, auth);
  const until = performance.now() + (plan.waitMs ?? 0);
  let delay = RETRY_FIRST_MS;
  const stopped = stoppedBy(plan.signal);
  stopped.catch(() => undefined); // read only when a race loses to it
  for (let attempt = 1; ; attempt++) {
    try {
      const trying = connect(options);
      // a connection made after the stop is closed, not left to hold the process
      if (plan.signal !== undefined) void trying.then((nc) => (plan.signal?.aborted === true ? nc.close() : undefined), () => undefined);
      return await Promise.race([trying, stopped]);
    } catch (e) {
      if (e instanceof NatsConnectStoppedError) throw e;
      if (!unreachable(e)) throw Object.assign(new Error(connectProblem(redact((e as Error).message))), { name: (e as Error).name });
      // a name no server's DNS knows is said as that at the first attempt; still tried again, since a container
      // network's DNS knows a server's name only once its container runs (Docker Compose)
      const unknown = await noServerResolves(e, options.servers as string[]);
      const problem = unknown === null ? connectProblem(redact((e as Error).message)) : redact(unknown); // a code it quotes (ENOTFOUND) said in words
      const left = until - performance.now();
      if (left <= 0) throw new NatsUnreachableError(`no NATS server reachable at ${redact(plainServers(servers).urls.join(','))} (${problem})${plan.waitMs === undefined || plan.waitMs === 0 ? '' : ` after ${attempt} attempts in ${Math.round(plan.waitMs / 1000)} s`}`);
      const wait = Math.min(delay, left);
      plan.onRetry?.(attempt, wait, problem);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise((r) => (timer = setTimeout(r, wait))), stopped]).finally(() => clearTimeout(timer));
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }
}

/**
 * After a failed attempt `e` that quotes ENOTFOUND: when no server of `urls` has a host name that resolves,
 * what to say of them (`the host name nats.internl does not resolve (no such name: DNS does not know it)`);
 * else null (an address, or a name that resolves, may still answer: tried again).
 */
async function noServerResolves(e: unknown, urls: readonly string[]): Promise<string | null> {
  if ((e as NodeJS.ErrnoException).code !== 'ENOTFOUND' && !/\bENOTFOUND\b/.test(String((e as Error).message).slice(0, 4096))) return null;
  const hosts = new Set(urls.map(hostOf));
  const unknown = await unresolvedHosts(urls);
  if (unknown.length === 0 || unknown.length !== hosts.size) return null;
  const names = unknown.map((h) => JSON.stringify(h)).join(', ');
  return `${unknown.length === 1 ? `the host name ${names} does` : `the host names ${names} do`} not resolve (no such host name: DNS does not know it; check the address, or start the server's container first)`;
}
