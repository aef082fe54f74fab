/**
 * `loopwatch serve` under bad input and load, on 127.0.0.1: malformed JSON, wrong types, unknown fields,
 * huge or deeply nested bodies, invalid UTF-8, slow clients, a full server and many connections at once.
 * Every refusal names what was wrong; nothing crashes the server, and good requests keep being served.
 */
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeServer } from '../src/serve/serve-server.js';
import { post, rawSocket, readUntilClose, request } from './helpers/http.js';

let server: ServeServer;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0, bodyLimit: 64 * 1024, requestTimeoutMs: 1_000, maxInFlight: 64 });
});
afterAll(async () => {
  await server.stop();
});

const good = { session: 'fine', tool: 'read', args: { path: 'a.py' } };

/** The server still answers a good call. */
async function stillServing(): Promise<void> {
  const r = await post(`${server.url}/v1/check`, good);
  expect(r.status).toBe(200);
}

describe('loopwatch serve refuses bad requests, naming the field', () => {
  it.each([
    ['{"session": "s", "tool": ', 'body', 'bad_json'],
    ['', 'body', 'bad_json'],
    ['[1, 2]', 'body', 'bad_request'],
    ['"just a string"', 'body', 'bad_request'],
    ['{"tool": "x"}', 'session', 'bad_request'],
    ['{"session": 7, "tool": "x"}', 'session', 'bad_request'],
    ['{"session": "", "tool": "x"}', 'session', 'bad_request'],
    ['{"session": "s"}', 'tool', 'bad_request'],
    ['{"session": "s", "tool": ["x"]}', 'tool', 'bad_request'],
    ['{"session": "s", "tool": "x", "step": "3"}', 'step', 'bad_request'],
    ['{"session": "s", "tool": "x", "text": {}}', 'text', 'bad_request'],
    ['{"session": "s", "tool": "x", "id": 12}', 'id', 'bad_request'],
    ['{"session": "s", "tool": "x", "argz": {}}', 'argz', 'bad_request'],
  ])('should answer %s with 400 naming %s', async (body, field, code) => {
    const r = await post(`${server.url}/v1/check`, body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.field).toBe(field);
    expect(r.body.error.message).toMatch(/received|JSON|expected|known/);
  });

  it('should refuse a whole batch for one bad call, naming its index, and record nothing', async () => {
    const calls = [{ session: 'batch-atomic', tool: 'a' }, { session: 'batch-atomic', tool: 'b' }, { session: 'batch-atomic', tool: 3 }];
    const r = await post(`${server.url}/v1/check/batch`, { calls });
    expect(r.status).toBe(400);
    expect(r.body.error.field).toBe('calls[2].tool');
    expect(server.engine.has('batch-atomic')).toBe(false);
    for (const body of [{}, { calls: [] }, { calls: {} }, { calls: Array.from({ length: 10_001 }, () => ({ session: 'x', tool: 'y' })) }]) {
      const e = await post(`${server.url}/v1/check/batch`, body);
      expect(e.status, JSON.stringify(body).slice(0, 40)).toBe(e.status === 413 ? 413 : 400);
    }
    const suggest = await post(`${server.url}/v1/check/batch`, { call: [] });
    expect(suggest.body.error.message).toContain('did you mean calls?');
  });

  it('should take args nested 30,000 deep and lone surrogates without harm, and refuse invalid UTF-8 naming its byte', async () => {
    const deep = await post(`${server.url}/v1/check`, `{"session":"deep","tool":"x","args":${'['.repeat(30_000)}${']'.repeat(30_000)}}`);
    expect(deep.status).toBe(200);
    const bytes = Buffer.concat([Buffer.from('{"session":"utf","tool":"x","args":{"p":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]);
    // JSON is UTF-8 (RFC 8259): read leniently, ids differing only in invalid bytes were one session (serve-body-utf8)
    const invalid = await post(`${server.url}/v1/check`, new Uint8Array(bytes));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toContain('byte 41 ');
    expect((await post(`${server.url}/v1/check`, '{"session":"sur","tool":"x","result":"\\ud800"}')).status).toBe(200);
    await stillServing();
  });

  it('should answer a body over the limit 413, declared or streamed, and go on serving', async () => {
    const big = JSON.stringify({ ...good, result: 'x'.repeat(100_000) });
    const declared = await post(`${server.url}/v1/check`, big);
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('body_too_large');
    // chunked: no content-length, the limit is found while reading
    const streamed = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(server.url);
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/check', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 40; i++) req.write('x'.repeat(4096));
      req.end();
    });
    expect(streamed).toBe(413);
    await stillServing();
  });
});

describe('loopwatch serve under load', () => {
  it('should answer a client that sends its request too slowly 408 and close it, serving others meanwhile', async () => {
    const slow = await rawSocket(server.url);
    slow.write('POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"session":');
    const answer = readUntilClose(slow, 8_000);
    await stillServing();
    const { text, closed } = await answer;
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1.1 408/);
  });

  // hostile30: clients still sending their bodies (a byte a second) held every slot for the request timeout,
  // and every other caller got 503; they hold none now (their bytes are bounded by the body budget)
  it('should not let clients still sending their bodies take the in-flight slots, and answer them when they end', async () => {
    const small = await ServeServer.start({ port: 0, maxInFlight: 3, requestTimeoutMs: 5_000 });
    try {
      const holders = await Promise.all([0, 1, 2, 3, 4].map(() => rawSocket(small.url)));
      for (const h of holders) h.write('POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"session":"hold",');
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 4; i++) expect((await post(`${small.url}/v1/check`, { ...good, session: `other-${i}` })).status).toBe(200);
      // hostile7: the liveness probe is answered, and counts the held requests, not itself
      const health = await request(`${small.url}/healthz`, 'GET');
      expect(health.status).toBe(200);
      expect(health.body.inFlight).toBe(5);
      const answers = holders.map((h) => readUntilClose(h, 3_000));
      for (const h of holders) h.end('"tool":"x"}'.padEnd(60 - '{"session":"hold",'.length, ' '));
      for (const a of await Promise.all(answers)) expect(a.text).toMatch(/^HTTP\/1.1 200/);
      expect((await post(`${small.url}/v1/check`, good)).status).toBe(200);
      expect((await request(`${small.url}/healthz`, 'GET')).body.inFlight).toBe(0);
    } finally {
      await small.stop();
    }
  });

  it('should answer 503 when the bodies being read together pass their byte budget', async () => {
    const tight = await ServeServer.start({ port: 0, maxBufferedBytes: 10_000, requestTimeoutMs: 5_000 });
    try {
      const holder = await rawSocket(tight.url);
      holder.write(`POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 20000\r\n\r\n${'{"session":"s","tool":"x","result":"'.padEnd(9_000, 'x')}`);
      await new Promise((r) => setTimeout(r, 200));
      const refused = await post(`${tight.url}/v1/check`, { ...good, result: 'y'.repeat(5_000) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      holder.destroy();
    } finally {
      await tight.stop();
    }
  });

  it('should serve 400 concurrent keep-alive connections, 5 calls each, each answered in order', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 400 });
    const { port } = new URL(server.url);
    const call = (session: string, i: number): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ session, id: String(i), tool: 'bash', args: { command: 'pytest' } });
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/check', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (b: Buffer) => (text += b.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const clients = Array.from({ length: 400 }, async (_, c) => {
        const kinds: (string | null)[] = [];
        for (let i = 0; i < 5; i++) {
          const r = await call(`many-${c}`, i);
          expect(r.status).toBe(200);
          const parsed = JSON.parse(r.body) as { id: string; verdict: { kind: string } | null };
          expect(parsed.id).toBe(String(i));
          kinds.push(parsed.verdict?.kind ?? null);
        }
        return kinds;
      });
      for (const kinds of await Promise.all(clients)) expect(kinds).toEqual([null, null, 'exact_repeat', 'exact_repeat', 'exact_repeat']);
    } finally {
      agent.destroy();
    }
  }, 60_000);
});
