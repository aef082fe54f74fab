/**
 * Options of the `loopwatch serve` HTTP service, each with its unit, bounds and default. The CLI fills them
 * from its flags; tests pass them directly.
 */
import { getHeapStatistics } from 'node:v8';
import type { LoopEngineOptions } from '../engine/engine-options.js';
import type { LoopDetectorOptions } from '../options/options.js';
import type { BearerToken } from './bearer-token.js';

/** Options of a {@link ServeServer}. */
export interface ServeOptions {
  /** Address to listen on. @default '127.0.0.1' */
  readonly host?: string;
  /** TCP port; 0 picks a free one (see `ServeServer.port`). @default 7878 */
  readonly port?: number;
  /** The bearer token every request but `/healthz` must carry; required for a non-loopback host. */
  readonly token?: BearerToken;
  /**
   * Names a request's `Host` and `Origin` may give beside loopback names and addresses and `host` itself
   * (request-origin.ts); `'*'` accepts any name (only safe with a token). @default []
   */
  readonly allowHosts?: readonly string[];
  /** Where sessions are persisted at shutdown and restored from at start; none when undefined. */
  readonly stateDir?: string;
  /** Largest request body, in bytes (413 above). @default 4194304 */
  readonly bodyLimit?: number;
  /** Bytes of request bodies held at once by all requests together (503 above): bounds the memory bodies take. @default 67108864 */
  readonly maxBufferedBytes?: number;
  /** Requests handled at once (reading a body included); one more gets 503 with Retry-After. @default 256 */
  readonly maxInFlight?: number;
  /** Most open connections; the server refuses more. @default 4096 */
  readonly maxConnections?: number;
  /** A request whose headers and body are not in after this many ms is answered 408 and closed (slow clients). @default 30000 */
  readonly requestTimeoutMs?: number;
  /**
   * How long a kept-alive connection may stay quiet before it is closed, in ms (advertised as `Keep-Alive:
   * timeout=` in whole seconds; Node waits 1 s more, then connection-drain.ts KEEP_ALIVE_GRACE_MS). @default 5000
   */
  readonly keepAliveTimeoutMs?: number;
  /** At shutdown, how long in-flight requests may take to finish, in ms, before their connections are cut. @default 10000 */
  readonly drainMs?: number;
  /**
   * Bytes the sessions may hold together: each its fixed cost (about 9 KB under the default options,
   * session-cost.ts) and its calls' content (args, texts..., as counted by the door: 2 per character, 48
   * per value, call-door.ts); past it the least recently used sessions are evicted
   * (held-memory.ts). @default a quarter of V8's heap limit (`--max-old-space-size`)
   */
  readonly sessionMemory?: number;
  /** The engine's options (detection options, maxSessions, idleTtlMs). */
  readonly engine?: LoopEngineOptions;
  /**
   * The decision log of the hook routes (src/hooks/decision-log.ts, as `loopwatch hook --log` writes it): a
   * line per hook call decided, the calls that ran without their after-event (missed-records.ts) among them.
   * @default none
   */
  readonly hookLog?: string;
  /**
   * A config's families (config-families.ts): each family's detection options, laid over the pooled ones;
   * a session whose calls name an agent of the family is checked on an engine of those options, with
   * `engine`'s sessions, idle time and onEvict (family-engines.ts). @default none
   */
  readonly families?: ReadonlyMap<string, LoopDetectorOptions>;
}

/** ServeOptions with the defaults filled in. */
export interface ResolvedServeOptions {
  readonly host: string;
  readonly port: number;
  readonly token: BearerToken | undefined;
  readonly allowHosts: readonly string[];
  readonly stateDir: string | undefined;
  readonly bodyLimit: number;
  readonly maxBufferedBytes: number;
  readonly maxInFlight: number;
  readonly maxConnections: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly drainMs: number;
  readonly sessionMemory: number;
  readonly engine: LoopEngineOptions;
  readonly families: ReadonlyMap<string, LoopDetectorOptions>;
  readonly hookLog: string | undefined;
}

/** The default of `sessionMemory`: a quarter of V8's heap limit. */
export function defaultSessionMemory(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4);
}

/** The default port of `loopwatch serve`. */
export const DEFAULT_PORT = 7878;

/** Fills in the defaults. */
export function resolveServeOptions(o: ServeOptions): ResolvedServeOptions {
  return {
    host: o.host ?? '127.0.0.1',
    port: o.port ?? DEFAULT_PORT,
    token: o.token,
    allowHosts: o.allowHosts ?? [],
    stateDir: o.stateDir,
    bodyLimit: o.bodyLimit ?? 4 << 20,
    maxBufferedBytes: o.maxBufferedBytes ?? 64 << 20,
    maxInFlight: o.maxInFlight ?? 256,
    maxConnections: o.maxConnections ?? 4096,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    keepAliveTimeoutMs: o.keepAliveTimeoutMs ?? 5_000,
    drainMs: o.drainMs ?? 10_000,
    sessionMemory: o.sessionMemory ?? defaultSessionMemory(),
    engine: o.engine ?? {},
    families: o.families ?? new Map(),
    hookLog: o.hookLog,
  };
}
