/**
 * A NATS worker's own small HTTP listener (`loopwatch serve --nats URL --metrics-port N`): `GET /metrics`,
 * the Prometheus text of a registry made as `serve` makes its own (prometheus.ts detectionRegistry, plus
 * the worker's series), and `GET /healthz`. Held to `serve`'s rules: loopback by default, `/metrics` needs
 * the bearer token when one is set (compared in constant time), a `Host` or `Origin` of another site is
 * refused (DNS rebinding), no body is read, slow clients are cut (headers within 10 s), connections capped.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BearerToken, unauthorized } from './bearer-token.js';
import { HttpRefusal, sendJson, sendPrometheus, sendRefusal } from './http-io.js';
import { AllowedHosts } from './request-origin.js';

/** Connections held at once (a scraper and a probe need a few). */
export const METRICS_MAX_CONNECTIONS = 64;

/** Options of a metrics listener. */
export interface MetricsListenerOptions {
  /** Address to listen on. @default '127.0.0.1' */
  readonly host?: string;
  /** TCP port (0: any free one). */
  readonly port: number;
  /** The token `/metrics` needs; none: any caller that reaches the port. */
  readonly token?: BearerToken;
  /** The Prometheus text. */
  readonly metrics: () => Promise<string>;
  /** What `/healthz` answers (no token needed). */
  readonly health: () => Record<string, unknown>;
}

/** Serves `/metrics` and `/healthz` until closed. Start it with {@link MetricsListener.start}. */
export class MetricsListener {
  private readonly hosts: AllowedHosts;

  private constructor(
    private readonly server: Server,
    private readonly options: MetricsListenerOptions,
    private readonly host: string,
  ) {
    this.hosts = new AllowedHosts(host);
  }

  /** Listens; rejects when the port cannot be had (EADDRINUSE, EACCES). */
  static async start(options: MetricsListenerOptions): Promise<MetricsListener> {
    const host = options.host ?? '127.0.0.1';
    const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 });
    server.maxConnections = METRICS_MAX_CONNECTIONS;
    const l = new MetricsListener(server, options, host);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => l.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return l;
  }

  /** The base URL, e.g. `http://127.0.0.1:9464`. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}`;
  }

  /** Stops listening and closes every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0];
    const refuse = (r: HttpRefusal): void => sendRefusal(res, r);
    if (path !== '/metrics' && path !== '/healthz') return refuse(new HttpRefusal(404, 'not_found', 'a NATS worker serves GET /metrics and GET /healthz only'));
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(new HttpRefusal(405, 'method_not_allowed', `${path} answers GET only`, undefined, { allow: 'GET, HEAD' }));
    if (path === '/healthz') return sendJson(res, 200, this.options.health());
    const misnamed = this.hosts.refusal(req);
    if (misnamed !== undefined) return refuse(misnamed);
    const token = this.options.token;
    if (token !== undefined && !token.accepts(req.headers.authorization)) {
      return refuse(unauthorized());
    }
    this.options.metrics().then(
      (text) => sendPrometheus(res, text, req.method === 'HEAD'),
      (e: unknown) => refuse(new HttpRefusal(500, 'internal', `metrics could not be collected: ${e instanceof Error ? e.message : String(e)}`)),
    );
  }
}
