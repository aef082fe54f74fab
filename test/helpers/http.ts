/** Small HTTP helpers for the `loopwatch serve` tests: JSON requests and raw sockets (for slow clients). */
import { connect, type Socket } from 'node:net';

/** A response: status, headers and the body parsed as JSON (or the text when it is not JSON). */
export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

/** Sends `body` (an object as JSON, a string or bytes as they are) and reads the answer. */
export async function request(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const payload = body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, ...(payload === undefined ? {} : { body: payload }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** POSTs JSON. */
export const post = (url: string, body: unknown, headers?: Record<string, string>): Promise<JsonResponse> => request(url, 'POST', body, headers);

/** Opens a raw TCP connection to the server of `url`. */
export function rawSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s));
    s.once('error', reject);
  });
}

/** Everything the socket receives until it closes (or `ms` pass). */
export function readUntilClose(s: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    s.on('data', (b: Buffer) => (text += b.toString('utf8')));
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

/**
 * A sender of Claude Code hook payloads to serve's hook route at `serverUrl`: POSTs each as JSON, demands the
 * answer was checked (no `Loopwatch-Unchecked` header: a fail-open answer would pass any test of actions),
 * and returns the answer's text, as the hook would print it.
 */
export function claudeHookRoute(serverUrl: string, check: (unchecked: string | null) => void): (payload: unknown) => Promise<string> {
  return async (payload) => {
    const res = await fetch(`${serverUrl}/v1/hooks/claude-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    check(res.headers.get('loopwatch-unchecked'));
    return res.text();
  };
}
