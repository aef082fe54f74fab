/**
 * A JSON client over node:http with one kept-alive connection, for tests that post thousands of requests to
 * one server: `fetch` (test/helpers/http.ts) took ~0.5-0.75 ms of CPU a post, this ~0.1 (citime9's
 * fetchbench). Opt-in: the other serve tests keep `fetch`, what a user of the service most likely calls.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { JsonResponse } from './http.js';

/** A poster of JSON bodies over kept-alive connections, and the way to close them. */
export interface KeepAliveClient {
  /** POSTs `body` as JSON to `url` and reads the answer, its body parsed as JSON (or the text when it is not JSON). */
  post(url: string, body: unknown): Promise<JsonResponse>;
  /** How many connections the requests so far were sent over (1 when every one was kept). */
  connections(): number;
  /** Closes the kept connections: call it before the server stops. */
  close(): void;
}

/** A client holding at most one connection, kept between requests (requests made at once wait for it). */
export function keepAliveClient(): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<Socket>();
  const post = (url: string, body: unknown): Promise<JsonResponse> =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body), 'utf8');
      const req = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed });
        });
      });
      req.on('error', reject);
      req.on('socket', (socket) => sockets.add(socket));
      req.end(payload);
    });
  return { post, connections: () => sockets.size, close: () => agent.destroy() };
}
