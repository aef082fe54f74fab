/**
 * Prometheus metrics for the CLI and the service, through prom-client with a Registry of loopwatch's own
 * (never prom-client's global one, so a host's registry is never touched). The detection figures are read
 * when scraped (no cost per call); HTTP requests are counted and timed as they end. Series are named
 * `loopwatch_*`; labels are bounded (kinds, actions, route patterns, status codes), never a session id.
 */
import type { Counter as PromCounter, Histogram as PromHistogram, Registry } from 'prom-client';
import type * as PromClient from 'prom-client';
import type { EngineStats } from '../engine/loop-engine.js';
import { PROMETHEUS_PEER, requirePeer } from '../peers/optional-peers.js';

/** prom-client, loaded when a registry is first made (a library user who never serves never loads it). */
let prom: typeof PromClient | null = null;

/**
 * prom-client (an optional peer dependency): a MissingPeerError for `feature` when it is not installed.
 * @internal
 */
export function promClient(feature = 'Prometheus metrics'): typeof PromClient {
  return (prom ??= requirePeer<typeof PromClient>(feature, PROMETHEUS_PEER, import.meta.url));
}

/** Counts by label value. */
export type Tally = ReadonlyMap<string, number>;

/** What the detection series read when scraped. */
export interface DetectionSource {
  /** The engine's totals and session lifecycle. */
  stats(): EngineStats;
  /** Sessions live now. */
  liveSessions(): number;
  /** Verdicts by `kind/action` (kinds of the built-in detectors, else `custom`). */
  verdicts(): Tally;
  /** Two-phase decisions by `phase/action`. */
  decisions(): Tally;
  /** Calls the service refused (invalid, or the engine failed on them). */
  failed(): number;
}

/** A registry with the detection series and the process's default ones (`loopwatch_process_*`, ...). */
export function detectionRegistry(source: DetectionSource, withProcess = true): Registry {
  const { Counter, Gauge, Registry, collectDefaultMetrics } = promClient();
  const registry = new Registry();
  if (withProcess) collectDefaultMetrics({ register: registry, prefix: 'loopwatch_' });
  const registers = [registry];
  new Counter({
    name: 'loopwatch_checks_total',
    help: 'Tool calls checked (recorded, or blocked before they ran)',
    registers,
    collect() {
      this.reset();
      this.inc(source.stats().checks);
    },
  });
  new Counter({
    name: 'loopwatch_verdicts_total',
    help: 'Verdicts given, by loop kind and action',
    labelNames: ['kind', 'action'],
    registers,
    collect() {
      this.reset();
      for (const [key, n] of source.verdicts()) {
        const [kind = '', action = ''] = key.split('/');
        this.labels(kind, action).inc(n);
      }
    },
  });
  new Counter({
    name: 'loopwatch_decisions_total',
    help: 'Two-phase decisions, by phase (propose, record) and action (allow, warn, ask, deny, stop)',
    labelNames: ['phase', 'action'],
    registers,
    collect() {
      this.reset();
      for (const [key, n] of source.decisions()) {
        const [phase = '', action = ''] = key.split('/');
        this.labels(phase, action).inc(n);
      }
    },
  });
  new Counter({
    name: 'loopwatch_blocked_total',
    help: 'Proposed calls blocked before they ran (deny or stop)',
    registers,
    collect() {
      this.reset();
      this.inc(source.stats().blocked);
    },
  });
  new Counter({
    name: 'loopwatch_call_errors_total',
    help: 'Calls refused (invalid calls, or calls the engine failed on)',
    registers,
    collect() {
      this.reset();
      this.inc(source.failed());
    },
  });
  new Gauge({
    name: 'loopwatch_sessions_live',
    help: 'Sessions live now',
    registers,
    collect() {
      this.set(source.liveSessions());
    },
  });
  new Counter({
    name: 'loopwatch_sessions_dropped_total',
    help: 'Sessions ended, evicted (least recently used, beyond the cap) or expired (idle)',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      const s = source.stats();
      this.labels('ended').inc(s.ended);
      this.labels('evicted').inc(s.evicted);
      this.labels('expired').inc(s.expired);
    },
  });
  return registry;
}

/** Counts and times HTTP requests by route pattern, method and status. */
export class HttpMetrics {
  private readonly requests: PromCounter<'route' | 'method' | 'status'>;
  private readonly duration: PromHistogram<'route'>;

  constructor(registry: Registry) {
    const { Counter, Histogram } = promClient();
    const registers = [registry];
    this.requests = new Counter({ name: 'loopwatch_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'], registers });
    this.duration = new Histogram({
      name: 'loopwatch_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern',
      labelNames: ['route'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
  }

  /** Counts one answered request that took `seconds`. */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.requests.labels(route, method, String(status)).inc();
    this.duration.labels(route).observe(seconds);
  }
}
