/**
 * The `loopwatch serve` HTTP server: one LoopEngine in this thread behind Node's http server, with its
 * limits (body size, requests at once, connections, slow clients), the optional bearer token, and a graceful
 * stop that finishes what is in flight and persists every live session to the state directory, from which
 * the next start restores them.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoopEngine } from '../engine/loop-engine.js';
import { join } from 'node:path';
import { FamilyEngines } from './family-engines.js';
import { MissingPeerError } from '../errors.js';
import { HttpMetrics, detectionRegistry, promClient } from '../metrics/prometheus.js';
import { CheckService } from './check-service.js';
import { ConnectionDrain } from './connection-drain.js';
import type { HeldMemory } from './held-memory.js';
import { sessionMemory } from './session-cost.js';
import { HttpRefusal, sendRefusal } from './http-io.js';
import { type RouteContext, isOpenPath, route, routeLabel } from './http-routes.js';
import { isHookPath, sendHookRefusal } from './hook-routes.js';
import { AllowedHosts } from './request-origin.js';
import { unauthorized } from './bearer-token.js';
import { type ResolvedServeOptions, type ServeOptions, resolveServeOptions } from './serve-options.js';
import type { SaidNotes } from './said-notes.js';
import { MAX_SET_ASIDE, MAX_STATE_ENTRIES, listStateFiles, prepareStateDir, pruneSetAside, readStateFiles, removeStateFile, setAsideStateFile, writeStateFile } from './state-files.js';
import { fileProblem } from '../text/file-failure.js';

/** Methods metrics name as they are (others are `other`, so labels stay bounded). */
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH']);

/** What a start restored from the state directory. */
export interface RestoreReport {
  /** Sessions restored. */
  readonly restored: number;
  /** Files that could not be restored (kept aside as `.bad`), each with why. */
  readonly problems: readonly { readonly path: string; readonly problem: string }[];
  /** What was done to the state directory, to say (it was made private). */
  readonly notes: readonly string[];
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
  /** The engine holding every session (with a config's families, those of no family: `engines` has the others). */
  readonly engine: LoopEngine;
  /** The pooled engine and one per family of the config. */
  readonly engines: FamilyEngines;
  /** The calls' codec around the engine. */
  readonly service: CheckService;
  /** What the sessions hold (each its fixed cost and its calls' content), and its budget. */
  readonly memory: HeldMemory;
  /** What the start restored. */
  restoreReport: RestoreReport = { restored: 0, problems: [], notes: [] };
  private readonly options: ResolvedServeOptions;
  private readonly server: Server;
  private readonly ctx: RouteContext;
  private readonly hosts: AllowedHosts;
  private readonly startedAt = Date.now();
  private inFlight = 0;
  /** Requests in flight whose bodies were not all received when last looked at (they hold no slot: {@link busy}). */
  private readonly receiving = new Set<IncomingMessage>();
  private readonly drain: ConnectionDrain;
  private stopping = false;
  private stopped: Promise<StopReport> | undefined;

  private constructor(options: ServeOptions) {
    this.options = resolveServeOptions(options);
    // the engine tells the memory of every session it drops (ended ones are told by the service)
    let memory: HeldMemory | null = null;
    let said: SaidNotes | null = null;
    const given = this.options.engine.onEvict;
    this.engines = new FamilyEngines(
      {
        ...this.options.engine,
        onEvict: (s) => {
          memory?.forget(s.sessionId);
          said?.forget(s.sessionId); // what the hook routes said goes with its session
          given?.(s);
        },
      },
      this.options.families,
    );
    this.engine = this.engines.pooled;
    // a session holds content of its calls within the detectors' history (and the current one), and of its waiting
    // proposals, and every session its fixed cost (session-cost.ts), so that opening sessions without end is bounded too
    try {
      memory = sessionMemory(this.options.sessionMemory, this.engines.all.map((e) => e.options.detection), (id) => this.engines.holding(id)?.evict(id));
    } catch (e) {
      this.engines.close();
      throw e;
    }
    this.memory = memory;
    this.service = new CheckService(this.engine, memory, this.engines.all.length > 1 ? this.engines : null);
    said = this.service.said;
    const allow = this.options.allowHosts;
    this.hosts = new AllowedHosts(this.options.host, allow.filter((h) => h !== '*'), allow.includes('*'));
    this.ctx = { service: this.service, bodyLimit: this.options.bodyLimit, budget: { used: 0, limit: this.options.maxBufferedBytes }, health: () => this.health(), metrics: () => this.prometheus(), hookLog: this.options.hookLog };
    const t = this.options.requestTimeoutMs;
    this.server = createServer({ requestTimeout: t, headersTimeout: Math.min(t, 10_000), keepAliveTimeout: this.options.keepAliveTimeoutMs, connectionsCheckingInterval: Math.min(1_000, t) }, (req, res) => this.onRequest(req, res));
    this.server.maxConnections = this.options.maxConnections;
    this.drain = new ConnectionDrain(this.server);
  }

  /**
   * Restores the sessions of the state directory, then listens. Rejects when the port cannot be had, and
   * with a NotPrivateError when the state directory is not private to the user (state-files.ts).
   */
  static async start(options: ServeOptions = {}): Promise<ServeServer> {
    const s = new ServeServer(options);
    try {
      s.startMetrics();
      s.restoreReport = s.restoreState();
      await new Promise<void>((resolve, reject) => {
        s.server.once('error', reject);
        s.server.listen(s.options.port, s.options.host, () => {
          s.server.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      s.engines.close(); // its sessions' memory goes back to the thread
      throw e;
    }
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
   * Stops: no new connections; the requests in flight finish (for up to `drainMs`) and close their
   * connections; a request arriving on an open connection meanwhile is answered 503 with `Connection:
   * close`, and a connection without one is closed once it has been quiet for a second
   * (connection-drain.ts). Then every live session is written to the state directory and the engine is
   * closed. Idempotent.
   */
  stop(): Promise<StopReport> {
    this.stopped ??= this.drainAndPersist();
    return this.stopped;
  }

  private async drainAndPersist(): Promise<StopReport> {
    this.stopping = true;
    const cut = await this.drain.drain(this.options.drainMs);
    const failed: { sessionId: string; problem: string }[] = [];
    let persisted = 0;
    const dir = this.options.stateDir;
    if (dir !== undefined) {
      let refused: string | undefined;
      try {
        prepareStateDir(dir);
      } catch (e) {
        refused = e instanceof Error ? e.message : String(e);
      }
      for (const [at, engine] of this.stateDirs(dir)) {
        // a family's folder prepared once, not once a session (its check may read the folder)
        let folderFailed: unknown = refused === undefined ? undefined : new Error(refused);
        if (folderFailed === undefined && at !== dir && engine.sessionIds().length > 0) {
          try {
            prepareStateDir(at);
          } catch (e) {
            folderFailed = e;
          }
        }
        for (const id of engine.sessionIds()) {
          try {
            if (folderFailed !== undefined) throw folderFailed;
            writeStateFile(at, id, engine.snapshot(id) as Uint8Array, this.service.said.get(id));
            persisted++;
          } catch (e) {
            // without the file's name: the same for every session a folder refuses, so a stop says it once for all
            // of them (Node's text, `EACCES: permission denied, open '.../3f2a….state'`, named neither)
            failed.push({ sessionId: id, problem: fileProblem(e, false) });
          }
        }
      }
    }
    this.engines.close();
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
      liveSessions: () => this.engines.size,
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
    if (dir === undefined) return { restored: 0, problems: [], notes: [] };
    const note = prepareStateDir(dir);
    let restored = 0;
    const problems: { path: string; problem: string }[] = [];
    const notes = note === null ? [] : [note];
    // removed once every file was read: a start stopped by a read error (too many open files) keeps them all
    const restoredPaths: string[] = [];
    for (const [at, engine] of this.stateDirs(dir)) {
      // listed as a stream, at most MAX_STATE_ENTRIES entries (the rest left for a later start)
      const listing = listStateFiles(at);
      if (listing.more) notes.push(`the state folder ${at} holds more than ${MAX_STATE_ENTRIES} entries: the first ${listing.read} listed were read (${listing.names.length} session files among them), the others were left as they are for a later start`);
      if (listing.leftovers > 0) notes.push(`${listing.leftovers} unfinished session file${listing.leftovers === 1 ? '' : 's'} of an earlier run removed from ${at}`);
      // one file at a time: the start holds the sessions restored (within --session-memory) and one file
      for (const f of readStateFiles(at, listing)) {
        try {
          if ('problem' in f) throw new Error(f.problem);
          this.service.restore(f.sessionId, f.snapshot, engine);
          // what the hook routes last said, kept with the session (not when restoring it evicted it again)
          if (engine.has(f.sessionId)) this.service.said.set(f.sessionId, f.said);
          restoredPaths.push(f.path);
          restored++;
        } catch (e) {
          problems.push({ path: setAsideStateFile(f.path), problem: fileProblem(e) });
        }
      }
    }
    for (const path of restoredPaths) removeStateFile(path);
    for (const [at] of this.stateDirs(dir)) {
      const pruned = pruneSetAside(at);
      if (pruned > 0) notes.push(`${pruned} older file${pruned === 1 ? '' : 's'} set aside as .bad in ${at} removed: the newest ${MAX_SET_ASIDE} are kept`);
    }
    return { restored, problems, notes };
  }

  /** Where each engine's sessions are persisted: the pooled engine's in `dir`, a family's in a folder of it named by the family. */
  private stateDirs(dir: string): [string, LoopEngine][] {
    return [[dir, this.engine], ...[...this.engines.families()].map(([name, e]): [string, LoopEngine] => [join(dir, `family-${Buffer.from(name, 'utf8').toString('hex').slice(0, 200)}`), e])];
  }

  private health(): Record<string, unknown> {
    return {
      status: this.stopping ? 'stopping' : 'ok',
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      sessions: this.engines.size,
      sessionMemory: { heldBytes: this.memory.total, budgetBytes: this.memory.budget },
      inFlight: this.inFlight,
      ...this.service.counts,
    };
  }

  /** Requests in flight that hold a slot: those whose bodies were all received (each is looked at until it has been). */
  private busy(): number {
    for (const r of this.receiving) if (r.complete) this.receiving.delete(r);
    return this.inFlight - this.receiving.size;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const t0 = performance.now();
    this.drain.track(req.socket, res);
    res.once('finish', () => this.observeRequest(routeLabel(req.url), METHODS.has(req.method ?? '') ? (req.method as string) : 'other', res.statusCode, (performance.now() - t0) / 1000));
    const refuse = (r: HttpRefusal): void => {
      if (res.headersSent) res.destroy();
      else if (isHookPath(req.url)) sendHookRefusal(res, r);
      else sendRefusal(res, r);
    };
    if (this.stopping) return refuse(new HttpRefusal(503, 'stopping', 'the server is stopping; retry on another instance or after its restart', undefined, { 'retry-after': '1', connection: 'close' }));
    const open = isOpenPath(req.url);
    const misnamed = open ? undefined : this.hosts.refusal(req);
    if (misnamed !== undefined) return refuse(misnamed);
    const token = this.options.token;
    if (token !== undefined && !open && !token.accepts(req.headers.authorization)) {
      return refuse(unauthorized());
    }
    // `/healthz` (the open path) reads no body and holds nothing: it is neither counted as in flight (it said
    // `inFlight: 1` of an idle server) nor refused when every slot is taken (slow clients that fill them made
    // a load balancer's probe see a dead server: 503 `overloaded`)
    // hostile30: a request still receiving its body holds no slot (256 clients sending a byte a second held
    // every slot for the request timeout: every other caller got 503); its bytes are bounded by the body
    // budget, its time by the request timeout, and such requests by the connection limit
    const busy = open ? 0 : this.busy();
    if (!open && busy >= this.options.maxInFlight) {
      return refuse(new HttpRefusal(503, 'overloaded', `${busy} requests are in flight (the limit); retry after the time in Retry-After`, undefined, { 'retry-after': '1', connection: 'close' }));
    }
    if (!open) {
      this.inFlight++;
      if (!req.complete) this.receiving.add(req);
    }
    let done = open;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.inFlight--;
      this.receiving.delete(req);
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
