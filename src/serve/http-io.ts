/**
 * Bodies in and out of `loopwatch serve`: a request body read up to a byte limit (413 past it, without
 * reading the rest), JSON parsed with a 400 that says where it broke, and JSON or byte responses with their
 * length set (keep-alive friendly).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonErrorMessage } from '../formats/json-value.js';
import { redactSecrets } from '../text/redact.js';
import { jsonSafe } from '../text/terminal-text.js';
import { HttpRefusal } from './http-refusal.js';
import { notUtf8, utf8Body } from './utf8-body.js';

export { HttpRefusal };

/** Bytes of request bodies held at once by every request together, and the most allowed. */
export interface BodyBudget {
  used: number;
  readonly limit: number;
}

/**
 * The request's body, at most `limit` bytes. A declared or actual length over the limit rejects with a 413
 * refusal; bodies held by all requests together over `budget.limit` reject with a 503 (the rest is not
 * read; the response closes the connection).
 */
export function readBody(req: IncomingMessage, limit: number, budget: BodyBudget): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(tooLarge(limit, `${declared} bytes declared`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const settle = (): void => {
      done = true;
      budget.used -= size;
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      budget.used += chunk.length;
      if (size > limit || budget.used > budget.limit) {
        settle();
        req.pause();
        reject(size > limit ? tooLarge(limit, 'more sent') : new HttpRefusal(503, 'overloaded', `request bodies being read hold over ${budget.limit} bytes; retry after the time in Retry-After`, undefined, { 'retry-after': '1', connection: 'close' }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      settle();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    req.on('error', (e) => {
      if (done) return;
      settle();
      reject(e);
    });
    req.on('close', () => {
      if (done) return;
      settle();
      reject(new HttpRefusal(400, 'aborted', 'the request was closed before its body ended'));
    });
  });
}

function tooLarge(limit: number, what: string): HttpRefusal {
  return new HttpRefusal(413, 'body_too_large', `the request body is over the limit of ${limit} bytes (${what}); send smaller batches`);
}

/** The body parsed as JSON, or a 400 refusal saying where the text stopped being UTF-8 (utf8-body.ts) or JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new HttpRefusal(400, 'bad_json', 'the request body is empty; a JSON object is expected', 'body');
  const read = utf8Body(body);
  if ('badAt' in read) throw new HttpRefusal(400, 'bad_json', notUtf8('the request body', read.badAt), 'body');
  try {
    return JSON.parse(read.text);
  } catch (e) {
    throw new HttpRefusal(400, 'bad_json', `the request body is not JSON: ${jsonErrorMessage(e)}`, 'body');
  }
}

/**
 * Sends `value` as JSON with `status`. The body echoes the client's session ids, tool names and paths (a
 * refusal's message, a verdict's unit): what JSON leaves raw of the characters a terminal acts on (C1's CSI,
 * the bidirectional overrides, U+2028/9) is written as `\uXXXX` (`jsonSafe`), so `curl` shows them as
 * escapes and a JSON reader reads back the same characters.
 */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = jsonSafe(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends the Prometheus text exposition (`GET /metrics` of serve and of a NATS worker); no body for a HEAD request. */
export function sendPrometheus(res: ServerResponse, text: string, head = false): void {
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(head ? undefined : text);
}

/** Sends bytes (a snapshot) with `status`. */
export function sendBytes(res: ServerResponse, status: number, bytes: Uint8Array): void {
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': bytes.byteLength });
  res.end(bytes);
}

/** Sends a refusal as `{ "error": { code, message, field? } }` (secrets in the message and field redacted). */
export function sendRefusal(res: ServerResponse, r: HttpRefusal): void {
  // the field may be an unknown key the caller sent (`aws_secret_access_key=...`): redacted as the message is
  const body = { error: { code: r.code, message: redactSecrets(r.message), ...(r.field === undefined ? {} : { field: redactSecrets(r.field) }) } };
  // a body we did not read (413) or a server stopping: close the connection after this response
  const headers: Record<string, string> = { ...r.headers };
  if (r.status === 413) headers.connection = 'close';
  sendJson(res, r.status, body, headers);
}
