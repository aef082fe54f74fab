/**
 * loopwatch's optional peer dependencies: packages only one part of it needs, which npm does not install
 * with it (package.json `peerDependencies`, each marked optional in `peerDependenciesMeta`), so that a
 * library user gets the detector and its pool without a NATS client or a metrics library. Each is loaded
 * where its part starts; one that cannot be found becomes a {@link MissingPeerError} naming the packages
 * and the `npm install` that adds them.
 *
 * | part | packages | loaded by |
 * |---|---|---|
 * | the NATS service | NATS_PEERS | `serve --nats`, `NatsCaller.connect` (`loopwatch/nats`) |
 * | Prometheus metrics | PROMETHEUS_PEER | `ServeServer.start` (`GET /metrics`), `scan --metrics` |
 * | an engine's OpenTelemetry metrics | OTEL_API_PEER | a LoopEngine made while a MeterProvider is registered |
 */
import { createRequire } from 'node:module';
import { MissingPeerError } from '../errors.js';

/** The NATS client packages the NATS service and its client (`loopwatch/nats`) load. */
export const NATS_PEERS: readonly string[] = Object.freeze(['@nats-io/transport-node', '@nats-io/jetstream', '@nats-io/kv']);

/** The Prometheus client the service's `/metrics` and `scan --metrics` load. */
export const PROMETHEUS_PEER = 'prom-client';

/** The OpenTelemetry API an engine loads when the host has registered a MeterProvider. */
export const OTEL_API_PEER = '@opentelemetry/api';

/** Whether `e` is import()'s or require()'s "not found" for one of `packages` itself (not for a file inside it). */
export function isMissingPackage(e: unknown, packages: readonly string[]): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = e instanceof Error ? e.message.split('\n', 1)[0]! : '';
  return packages.some((p) => message.includes(`'${p}'`));
}

/** Runs `load` (the import()s of `packages`); a package it cannot find becomes a MissingPeerError for `feature`. */
export async function importPeers<T>(feature: string, packages: readonly string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isMissingPackage(e, packages)) throw new MissingPeerError(feature, packages, e);
    throw e;
  }
}

/** require()s `name` as a module at `from` would (a URL); a package not found becomes a MissingPeerError for `feature`. */
export function requirePeer<T>(feature: string, name: string, from: string): T {
  try {
    return createRequire(from)(name) as T;
  } catch (e) {
    if (isMissingPackage(e, [name])) throw new MissingPeerError(feature, [name], e);
    throw e;
  }
}
