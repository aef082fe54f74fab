/**
 * GET /metrics of `loopwatch serve`: Prometheus text from a registry of loopwatch's own (prom-client's
 * global one untouched), detection series as the engine counts them, HTTP requests by route pattern, and
 * never a session id in a label.
 */
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BearerToken } from '../src/serve/bearer-token.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { post, request } from './helpers/http.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

/** The value of a series line `name{labels} value` (labels as written), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('loopwatch serve /metrics', () => {
  it('should expose the detection and HTTP series, named loopwatch_*, without session ids', async () => {
    const call = { session: 'private-session-a', tool: 'bash', args: { command: 'make' }, error: 'make: *** Error 2' };
    for (let i = 0; i < 4; i++) await post(`${server.url}/v1/check`, call);
    const live = { session: 'private-session-b', id: 'x1', tool: 'read', args: { path: 'a.py' } };
    await post(`${server.url}/v1/propose`, live);
    await post(`${server.url}/v1/record`, { ...live, result: 'text' });
    await request(`${server.url}/v1/sessions/private-session-a/snapshot`, 'GET');
    await request(`${server.url}/v1/sessions/private-session-a`, 'DELETE');
    await request(`${server.url}/nowhere/private-session-c`, 'GET');

    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const stats = server.engine.stats();
    expect(value(text, 'loopwatch_checks_total')).toBe(stats.checks);
    expect(value(text, 'loopwatch_verdicts_total{kind="exact_repeat",action="warn"}')).toBeGreaterThan(0);
    expect(value(text, 'loopwatch_decisions_total{phase="propose",action="allow"}')).toBe(1);
    expect(value(text, 'loopwatch_decisions_total{phase="record",action="allow"}')).toBe(1);
    expect(value(text, 'loopwatch_sessions_live')).toBe(1);
    expect(value(text, 'loopwatch_sessions_dropped_total{reason="ended"}')).toBe(1);
    expect(value(text, 'loopwatch_http_requests_total{route="/v1/check",method="POST",status="200"}')).toBe(4);
    expect(value(text, 'loopwatch_http_requests_total{route="/v1/sessions/{id}/snapshot",method="GET",status="200"}')).toBe(1);
    expect(value(text, 'loopwatch_http_requests_total{route="other",method="GET",status="404"}')).toBe(1);
    expect(value(text, 'loopwatch_http_request_duration_seconds_count{route="/v1/check"}')).toBe(4);
    expect(text).toContain('loopwatch_process_cpu_seconds_total');
    expect(text).not.toContain('private-session');
    for (const line of text.split('\n')) if (line !== '' && !line.startsWith('#')) expect(line).toMatch(/^loopwatch_/);
    // prom-client's global registry is left alone
    expect(await register.metrics()).not.toContain('loopwatch_');
  });

  it('should need the token for /metrics when one is set', async () => {
    const s = await ServeServer.start({ port: 0, token: new BearerToken('a-token-of-enough-length-123') });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer a-token-of-enough-length-123' } })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
