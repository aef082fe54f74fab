/**
 * The `loopwatch serve` HTTP server: one LoopEngine in this thread behind Node's http server, with its
 * limits (body size, requests at once, connections, slow clients), the optional bearer token, and a graceful
 * stop that finishes what is in flight and persists every live session to the state directory, from which
 * the next start restores them.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoopEngine } from '../engine/loop-engine.js';
import { MissingPeerError } from '../errors.js';
import { HttpMetrics, detectionRegistry, promClient } from '../metrics/prometheus.js';
import { CheckService } from './check-service.js';
import { HttpRefusal, sendRefusal } from './http-io.js';
import { type RouteContext, isOpenPath, route, routeLabel } from './http-routes.js';

/** Methods metrics name as they are (others are `other`, so labels stay bounded). */
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH']);
import { type ResolvedServeOptions, type ServeOptions, resolveServeOptions } from './serve-options.js';
import { readStateFiles, removeStateFile, setAsideStateFile, writeStateFile } from './state-files.js';

/** What a start restored from the state directory. */
export interface RestoreReport {
  /** Sessions restored. */
  readonly restored: number;
  /** Files that could not be restored (kept aside as `.bad`), each with why. */
  readonly problems: readonly { readonly path: string; readonly problem: string }[];
}

/** What a stop persisted. */
export interface StopReport {
  /** Sessions written to the state directory. */
  readonly persisted: number;
  /** Sessions that could not be written, each with why (never dropped in silence). */
  readonly failed: readonly { readonly sessionId: string; readonly problem: string }[];
  /** Requests still in flight when the drain time ran out (their connections were cut). */
  readonly cut: number;
}

/** The HTTP service. Start it with {@link ServeServer.start}. */
export class ServeServer {
  /** The engine holding every session. */
  readonly engine: LoopEngine;
  /** The calls' codec around the engine. */
  readonly service: CheckService;
  /** What the start restored. */
  restoreReport: RestoreReport = { restored: 0, problems: [] };
  private readonly options: ResolvedServeOptions;
  private readonly server: Server;
  private readonly ctx: RouteContext;
  private readonly startedAt = Date.now();
  private inFlight = 0;
  private stopping = false;
  private stopped: Promise<StopReport> | undefined;

  private constructor(options: ServeOptions) {
    this.options = resolveServeOptions(options);
    this.engine = new LoopEngine(this.options.engine);
    this.service = new CheckService(this.engine);
    this.ctx = { service: this.service, bodyLimit: this.options.bodyLimit, budget: { used: 0, limit: this.options.maxBufferedBytes }, health: () => this.health(), metrics: () => this.prometheus() };
    const t = this.options.requestTimeoutMs;
    this.server = createServer({ requestTimeout: t, headersTimeout: Math.min(t, 10_000), keepAliveTimeout: 5_000, connectionsCheckingInterval: Math.min(1_000, t) }, (req, res) => this.onRequest(req, res));
    this.server.maxConnections = this.options.maxConnections;
  }

  /** Restores the sessions of the state directory, then listens. Rejects when the port cannot be had. */
  static async start(options: ServeOptions = {}): Promise<ServeServer> {
    const s = new ServeServer(options);
    s.startMetrics();
    s.restoreReport = s.restoreState();
    await new Promise<void>((resolve, reject) => {
      s.server.once('error', reject);
      s.server.listen(s.options.port, s.options.host, () => {
        s.server.off('error', reject);
        resolve();
      });
    });
    return s;
  }

  /** The port listened on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The base URL, e.g. `http://127.0.0.1:7878`. */
  get url(): string {
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return `http://${host}:${this.port}`;
  }

  /**
   * Stops: no new connections or requests (503), the requests in flight finish (for up to `drainMs`), then
   * every live session is written to the state directory and the engine is closed. Idempotent.
   */
  stop(): Promise<StopReport> {
    this.stopped ??= this.drainAndPersist();
    return this.stopped;
  }

  private async drainAndPersist(): Promise<StopReport> {
    this.stopping = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const deadline = Date.now() + this.options.drainMs;
    while (this.inFlight > 0 && Date.now() < deadline) {
      this.server.closeIdleConnections();
      await new Promise((r) => setTimeout(r, 10));
    }
    const cut = this.inFlight;
    this.server.closeAllConnections();
    await closed;
    const failed: { sessionId: string; problem: string }[] = [];
    let persisted = 0;
    const dir = this.options.stateDir;
    if (dir !== undefined) {
      for (const id of this.engine.sessionIds()) {
        try {
          writeStateFile(dir, id, this.engine.snapshot(id) as Uint8Array);
          persisted++;
        } catch (e) {
          failed.push({ sessionId: id, problem: e instanceof Error ? e.message : String(e) });
        }
      }
    }
    this.engine.close();
    return { persisted, failed, cut };
  }

  /**
   * Why `GET /metrics` is not served (prom-client, an optional peer dependency, is not installed: it then
   * answers 501 with this message, and everything else works), or null.
   */
  get metricsUnavailable(): MissingPeerError | null {
    return this.metricsProblem;
  }

  private metricsProblem: MissingPeerError | null = null;

  /** The Prometheus registry (loaded only by a server: the library does not load prom-client). */
  private startMetrics(): void {
    const service = this.service;
    try {
      promClient('GET /metrics');
    } catch (e) {
      if (!(e instanceof MissingPeerError)) throw e;
      this.metricsProblem = e;
      this.prometheus = () => Promise.reject(new HttpRefusal(501, 'metrics_unavailable', e.message));
      return;
    }
    const registry = detectionRegistry({
      stats: () => this.engine.stats(),
      liveSessions: () => this.engine.size,
      verdicts: () => service.verdicts,
      decisions: () => service.decisions,
      failed: () => service.counts.failed,
    });
    const http = new HttpMetrics(registry);
    this.prometheus = () => registry.metrics();
    this.observeRequest = (route, method, status, seconds) => http.observe(route, method, status, seconds);
  }

  private prometheus: () => Promise<string> = async () => '';
  private observeRequest: (route: string, method: string, status: number, seconds: number) => void = () => undefined;

  private restoreState(): RestoreReport {
    const dir = this.options.stateDir;
    if (dir === undefined) return { restored: 0, problems: [] };
    let restored = 0;
    const problems: { path: string; problem: string }[] = [];
    for (const f of readStateFiles(dir)) {
      try {
        if ('problem' in f) throw new Error(f.problem);
        this.engine.restore(f.sessionId, f.snapshot);
        removeStateFile(f.path);
        restored++;
      } catch (e) {
        const problem = e instanceof Error ? e.message : String(e);
        problems.push({ path: setAsideStateFile(f.path), problem });
      }
    }
    return { restored, problems };
  }

  private health(): Record<string, unknown> {
    return {
      status: this.stopping ? 'stopping' : 'ok',
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      sessions: this.engine.size,
      inFlight: this.inFlight,
      ...this.service.counts,
    };
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const t0 = performance.now();
    res.once('finish', () => this.observeRequest(routeLabel(req.url), METHODS.has(req.method ?? '') ? (req.method as string) : 'other', res.statusCode, (performance.now() - t0) / 1000));
    const refuse = (r: HttpRefusal): void => {
      if (!res.headersSent) sendRefusal(res, r);
      else res.destroy();
    };
    if (this.stopping) return refuse(new HttpRefusal(503, 'stopping', 'the server is stopping; retry on another instance or after its restart', undefined, { 'retry-after': '1', connection: 'close' }));
    const token = this.options.token;
    if (token !== undefined && !isOpenPath(req.url) && !token.accepts(req.headers.authorization)) {
      return refuse(new HttpRefusal(401, 'unauthorized', 'a valid "Authorization: Bearer <token>" header is required', 'authorization', { 'www-authenticate': 'Bearer', connection: 'close' }));
    }
    if (this.inFlight >= this.options.maxInFlight) {
      return refuse(new HttpRefusal(503, 'overloaded', `${this.inFlight} requests are in flight (the limit); retry after the time in Retry-After`, undefined, { 'retry-after': '1', connection: 'close' }));
    }
    this.inFlight++;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.inFlight--;
    };
    res.once('close', finish);
    route(req, res, this.ctx).then(finish, (e: unknown) => {
      finish();
      if (e instanceof HttpRefusal) return refuse(e);
      const message = e instanceof Error ? e.message : String(e);
      refuse(new HttpRefusal(500, 'internal', `internal error: ${message.split('\n')[0] ?? ''} (a bug in loopwatch)`));
    });
  }
}
