/**
 * `loopwatch serve` refuses what a web page could send it: a `Host` that is not one of its names (DNS
 * rebinding), an `Origin` of another site, and POST bodies not declared `application/json` (the types a
 * page may send across sites without a preflight). Nothing refused is recorded. Before, a cross-origin
 * `text/plain` POST with any `Host` was checked and recorded.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BearerToken } from '../src/serve/bearer-token.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

/** A raw POST (node:http, so Host and Origin are sent as given); status, headers and body text. */
function send(url: string, path: string, headers: Record<string, string>, body = '', method = 'POST'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = '';
      res.on('data', (b: Buffer) => (text += b.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const call = (session: string): string => JSON.stringify({ session, tool: 'bash', args: { command: 'rm -rf build' } });

describe('loopwatch serve refuses what a web page could send', () => {
  it('should refuse a Host that is not a name of the server with 403, recording nothing', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.8']) {
      const r = await send(server.url, '/v1/check', { ...JSON_TYPE, host }, call('rebound'));
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.text).error).toMatchObject({ code: 'bad_host', field: 'host' });
    }
    expect(server.engine.has('rebound')).toBe(false);
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, 'LOCALHOST', '[::1]:7878', 'app.localhost', '127.1.2.3']) {
      expect((await send(server.url, '/v1/check', { ...JSON_TYPE, host }, call('named'))).status, host).toBe(200);
    }
  });

  it('should refuse an Origin of another site, or null, with 403, and serve loopback origins', async () => {
    for (const origin of ['https://evil.example', `http://evil.example:${server.port}`, 'null', 'http://127.0.0.1.evil.example']) {
      const r = await send(server.url, '/v1/propose', { ...JSON_TYPE, origin }, call('cross-site'));
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.text).error).toMatchObject({ code: 'bad_origin', field: 'origin' });
    }
    expect(server.engine.has('cross-site')).toBe(false);
    for (const origin of ['http://localhost:3000', `http://127.0.0.1:${server.port}`]) {
      expect((await send(server.url, '/v1/propose', { ...JSON_TYPE, origin }, call('local-page'))).status, origin).toBe(200);
    }
  });

  it('should refuse a POST body that is not declared application/json with 415, recording nothing', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', undefined]) {
      const r = await send(server.url, '/v1/check', type === undefined ? {} : { 'content-type': type }, call('simple-request'));
      expect(r.status, String(type)).toBe(415);
      expect(JSON.parse(r.text).error).toMatchObject({ code: 'unsupported_media_type', field: 'content-type' });
    }
    expect(server.engine.has('simple-request')).toBe(false);
    expect((await send(server.url, '/v1/check', { 'content-type': 'Application/JSON; charset=utf-8' }, call('typed'))).status).toBe(200);
  });

  it('should answer a hook route\'s refusal with an empty body (the hook prints it) and the reason in a header', async () => {
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const r = await send(server.url, '/v1/hooks/claude-code', { 'content-type': 'text/plain' }, payload);
    expect(r.status).toBe(415);
    expect(r.text).toBe('');
    expect(r.headers['loopwatch-unchecked']).toMatch(/^unsupported_media_type: .*application\/json/);
    const rebound = await send(server.url, '/v1/hooks/claude-code', { ...JSON_TYPE, host: 'evil.example' }, payload);
    expect(rebound.status).toBe(403);
    expect(rebound.text).toBe('');
  });

  it('should answer /healthz whatever the Host (a probe uses the machine\'s address)', async () => {
    expect((await send(server.url, '/healthz', { host: '10.0.0.8:7878' }, '', 'GET')).status).toBe(200);
  });

  it('should serve the names given with --allow-host, and any with * behind a token', async () => {
    const named = await ServeServer.start({ port: 0, allowHosts: ['loopwatch.internal'] });
    const any = await ServeServer.start({ port: 0, allowHosts: ['*'], token: new BearerToken('a-token-of-enough-length-123') });
    try {
      expect((await send(named.url, '/v1/check', { ...JSON_TYPE, host: 'loopwatch.internal:7878', origin: 'https://LOOPWATCH.internal' }, call('a'))).status).toBe(200);
      expect((await send(named.url, '/v1/check', { ...JSON_TYPE, host: 'other.internal' }, call('a'))).status).toBe(403);
      const auth = { ...JSON_TYPE, authorization: 'Bearer a-token-of-enough-length-123' };
      expect((await send(any.url, '/v1/check', { ...auth, host: 'whatever.example' }, call('a'))).status).toBe(200);
    } finally {
      await Promise.all([named.stop(), any.stop()]);
    }
  });

  it('should refuse --allow-host * without a token, and a value that is not a host name, in one line', async () => {
    const star = await loopwatchInProcess(['serve', '--port', '0', '--allow-host', '*']);
    expect(star.code).toBe(2);
    expect(star.stderr).toMatch(/--allow-host \* .*--token-file/);
    const bad = await loopwatchInProcess(['serve', '--port', '0', '--allow-host', 'a.example,not a host']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('loopwatch serve: --allow-host must be a host name or address (or *), received "not a host" (see loopwatch serve --help)');
  });
});
