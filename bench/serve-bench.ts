/**
 * `--scope serve`: `loopwatch serve` over HTTP, the server a child process (`serve --port 0 --no-state` with a token of its own,
 * every default detector), this process the client over keep-alive connections, on a synthetic fleet
 * (2,000 sessions x 50 calls, with results). Measured beside the engine in this process on the same calls:
 *
 * - single calls, one connection, one request at a time (the latency an agent's hook sees);
 * - single calls, 8 connections at once;
 * - batches of 100 calls, 4 connections at once.
 */
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { LoopEngine } from '../src/engine/loop-engine.js';
import { fleetEvents } from './fleet.js';
import { startServeChild } from './serve-child.js';
import { type ServiceFigure, push, quantile } from './service-figures.js';

const SCOPE = 'serve: HTTP, all default detectors';
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** POSTs `body` on `agent`; resolves with the milliseconds it took. */
function post(url: URL, agent: Agent, authorization: string, path: string, body: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends `bodies` over `connections` keep-alive connections, each one request at a time; calls/s and latencies. */
async function run(url: URL, authorization: string, path: string, bodies: readonly string[], callsEach: number, connections: number): Promise<{ callsPerSecond: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < bodies.length) latencies.push(await post(url, agent, authorization, path, bodies[next++] as string));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { callsPerSecond: (bodies.length * callsEach) / seconds, latencies };
}

/** The serve scope's figures. */
export async function serveFigures(): Promise<ServiceFigure[]> {
  const out: ServiceFigure[] = [];
  const events = fleetEvents(2_000, 50);
  // baseline: the engine in this process, one call at a time
  const engine = new LoopEngine();
  const warm = fleetEvents(500, 20).map((e) => ({ ...e, session: `warm-${e.session}` }));
  for (const e of warm) engine.check(e.session, e);
  const t = performance.now();
  for (const e of events) engine.check(e.session, e);
  push(out, { scope: SCOPE, impl: 'LoopEngine.check in this process (no HTTP)', callsPerSecond: events.length / ((performance.now() - t) / 1000), p50Ms: NaN, p99Ms: NaN });
  engine.close();

  const { url, authorization, stop } = await startServeChild(CLI);
  try {
    const u = new URL(url);
    const singles = events.map((e, i) => JSON.stringify({ ...e, session: `a-${e.session}`, id: String(i) }));
    await run(u, authorization, '/v1/check', warm.map((e) => JSON.stringify(e)), 1, 4);
    const one = await run(u, authorization, '/v1/check', singles.slice(0, 20_000), 1, 1);
    push(out, { scope: SCOPE, impl: 'POST /v1/check, 1 connection, one request at a time', callsPerSecond: one.callsPerSecond, p50Ms: quantile(one.latencies, 0.5), p99Ms: quantile(one.latencies, 0.99) });
    const many = await run(u, authorization, '/v1/check', events.map((e, i) => JSON.stringify({ ...e, session: `b-${e.session}`, id: String(i) })), 1, 8);
    push(out, { scope: SCOPE, impl: 'POST /v1/check, 8 connections', callsPerSecond: many.callsPerSecond, p50Ms: quantile(many.latencies, 0.5), p99Ms: quantile(many.latencies, 0.99) });
    const batches: string[] = [];
    for (let at = 0; at < events.length; at += 100) batches.push(JSON.stringify({ calls: events.slice(at, at + 100).map((e) => ({ ...e, session: `c-${e.session}` })) }));
    const batched = await run(u, authorization, '/v1/check/batch', batches, 100, 4);
    push(out, { scope: SCOPE, impl: 'POST /v1/check/batch, 100 calls per request, 4 connections', callsPerSecond: batched.callsPerSecond, p50Ms: quantile(batched.latencies, 0.5), p99Ms: quantile(batched.latencies, 0.99) });
  } finally {
    stop();
  }
  return out;
}
