/**
 * `loopwatch serve --nats URL --metrics-port N`: a worker's `/metrics` and `/healthz`. The registry is made
 * as `serve` makes its own (detectionRegistry: calls checked, verdicts by kind and action, decisions,
 * sessions live and dropped, the process's series), plus the worker's series (partitions owned, moves by
 * reason, repeated deliveries, sessions lost, connection). The token is serve's: `--token-file`, else the
 * user's serve.token (read or made, as `serve` does), or none with `--no-token`.
 */
import { NotPrivateError } from '../errors.js';
import { readFailure } from '../formats/regular-file.js';
import { addWorkerSeries } from '../metrics/nats-worker-metrics.js';
import { detectionRegistry, promClient } from '../metrics/prometheus.js';
import type { BearerToken } from '../serve/bearer-token.js';
import { MetricsListener } from '../serve/metrics-listener.js';
import type { NatsWorker } from '../serve/nats/nats-worker.js';
import { serveTokenFile } from '../serve/serve-token-file.js';
import { terminalSafe } from '../text/terminal-text.js';
import { UsageError, peerAsUsage } from './usage-error.js';
import { listenFailure } from '../text/network-failure.js';

/** A NATS worker's `--metrics-port` listener: its port, and its token (`defaultToken`: the user's serve.token, read or made at start). */
export interface WorkerMetricsSettings {
  readonly port: number;
  readonly token?: BearerToken;
  readonly defaultToken: boolean;
}

/** What starting the listener says on stderr (the token file used, where it listens). */
export interface StartedMetrics {
  readonly listener: MetricsListener;
  readonly lines: readonly string[];
}

/** Checks, before the worker starts, that /metrics can be served: prom-client installed (else a UsageError naming it). */
export function metricsUsable(): void {
  try {
    promClient('--metrics-port');
  } catch (e) {
    throw peerAsUsage(e);
  }
}

/** The listener's token: the one given, none with --no-token, else the user's serve.token (read or made). */
function tokenFor(settings: WorkerMetricsSettings, lines: string[]): BearerToken | undefined {
  if (!settings.defaultToken) return settings.token;
  try {
    const made = serveTokenFile();
    lines.push(`/metrics bearer token ${made.made ? 'made in' : 'read from'} ${terminalSafe(made.path)} (0600); curl -H @${terminalSafe(made.headerPath)} ...`);
    return made.token;
  } catch (e) {
    const why = e instanceof NotPrivateError ? e.message : readFailure(e);
    throw new UsageError(`cannot use the server's token file (${terminalSafe(why)}): give --token-file FILE, or --no-token to serve /metrics to any local user`);
  }
}

/** Starts the worker's listener on 127.0.0.1; a port that cannot be had is a UsageError naming it. */
export async function startWorkerMetrics(worker: NatsWorker, settings: WorkerMetricsSettings): Promise<StartedMetrics> {
  const lines: string[] = [];
  const token = tokenFor(settings, lines);
  const sources = worker.metricsSources();
  const registry = detectionRegistry(sources.detection);
  addWorkerSeries(registry, sources.worker);
  const startedAt = Date.now();
  let listener: MetricsListener;
  try {
    listener = await MetricsListener.start({
      port: settings.port,
      ...(token === undefined ? {} : { token }),
      metrics: () => registry.metrics(),
      health: () => ({
        status: sources.worker.connected() ? 'ok' : 'disconnected',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        partitions: worker.partitions(),
        sessions: sources.detection.liveSessions(),
        calls: worker.stats.calls,
        verdicts: worker.stats.verdicts,
        sessionsLost: worker.stats.sessionsLost,
      }),
    });
  } catch (e) {
    const listen = listenFailure(e, { host: '127.0.0.1', port: settings.port, portFlag: '--metrics-port', hostFlag: null });
    if (listen !== null) throw new UsageError(`--metrics-port ${settings.port}: ${listen}`);
    throw e;
  }
  lines.push(`GET /metrics and /healthz on ${listener.url}${token === undefined ? ' (no token: any local user may read them)' : ' (/metrics needs the bearer token)'}`);
  return { listener, lines };
}
