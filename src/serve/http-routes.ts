/**
 * The handlers of `loopwatch serve`'s routes (the routes themselves, and what help says of them, are the
 * table in route-table.ts), each a thin codec: read and check the body, ask the CheckService, answer as
 * JSON. Every refusal is `{ "error": { code, message, field? } }` with its status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidEventError, SnapshotError } from '../errors.js';
import { AGENT_NAMES } from '../hooks/hook-agent.js';
import { answerHook, isAgentName, uncheckedHeader } from './hook-routes.js';
import { type ServiceCall, idAt, readBatch, readCall, readPhasedBatch } from './call-schema.js';
import type { CheckService } from './check-service.js';
import { type BodyBudget, HttpRefusal, parseJson, readBody, sendBytes, sendJson, sendPrometheus } from './http-io.js';
import { ROUTE_SPECS, type RouteKey, pathPattern } from './route-table.js';
import { cutText } from '../text/shown-text.js';

/** What a route handler gets. */
export interface RouteContext {
  readonly service: CheckService;
  readonly bodyLimit: number;
  /** Bytes of bodies held by all requests together. */
  readonly budget: BodyBudget;
  /** Seconds since the server started, sessions live, whether it is stopping. */
  readonly health: () => Record<string, unknown>;
  /** The Prometheus text of the server's metrics. */
  readonly metrics: () => Promise<string>;
  /** The hook routes' decision log (ServeOptions.hookLog); none when undefined. */
  readonly hookLog?: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, ctx: RouteContext, param: string) => Promise<void> | void;

/** The body as a call or a batch, turning schema errors into 400s naming the field. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof InvalidEventError) throw new HttpRefusal(400, 'bad_request', e.message, e.field);
    throw e;
  }
}

/**
 * Refuses (415) a POST whose body is not declared `application/json`: the types a web page may send
 * across sites without a preflight (`text/plain`, forms) are never read, so no page can post calls.
 */
function requireJson(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  if (type !== undefined && type.split(';')[0]?.trim().toLowerCase() === 'application/json') return;
  throw new HttpRefusal(415, 'unsupported_media_type', `a POST body must be sent with Content-Type: application/json, received ${type === undefined ? 'none' : JSON.stringify(cutText(type, 80))} (curl: --json, or -H 'content-type: application/json')`, 'content-type');
}

/** The body as JSON (its content type checked by route()). */
async function jsonBody(req: IncomingMessage, ctx: RouteContext): Promise<unknown> {
  return parseJson(await readBody(req, ctx.bodyLimit, ctx.budget));
}

function sessionParam(param: string): string {
  let id: string;
  try {
    id = decodeURIComponent(param);
  } catch {
    throw new HttpRefusal(400, 'bad_request', 'the session id in the path is not valid percent-encoding', 'session');
  }
  return checked(() => idAt('session', id));
}

/** Reads one call from the body, answers with what `decide` says of it (a call the engine refuses: 400). */
async function oneCall(req: IncomingMessage, res: ServerResponse, ctx: RouteContext, decide: (call: ServiceCall) => unknown): Promise<void> {
  const body = await jsonBody(req, ctx);
  const call = checked(() => readCall('', body));
  sendJson(res, 200, checked(() => decide(call)));
}

/** The handler of each route of the table. */
const HANDLERS: Readonly<Record<RouteKey, Handler>> = {
  'GET /healthz': (_req, res, ctx) => sendJson(res, 200, ctx.health()),
  'GET /metrics': async (_req, res, ctx) => sendPrometheus(res, await ctx.metrics()),
  'POST /v1/check': async (req, res, ctx) => {
    const body = await jsonBody(req, ctx);
    const call = checked(() => readCall('', body));
    sendJson(res, 200, checked(() => ctx.service.check(call)));
  },
  'POST /v1/check/batch': async (req, res, ctx) => {
    const body = await jsonBody(req, ctx);
    const calls = checked(() => readBatch(body));
    sendJson(res, 200, { results: ctx.service.checkBatch(calls) });
  },
  'POST /v1/propose': (req, res, ctx) => oneCall(req, res, ctx, (call) => ctx.service.propose(call)),
  'POST /v1/record': (req, res, ctx) => oneCall(req, res, ctx, (call) => ctx.service.record(call)),
  'POST /v1/hooks/{agent}': async (req, res, ctx, agent) => {
    if (!isAgentName(agent)) throw new HttpRefusal(404, 'not_found', `no hook route for ${JSON.stringify(cutText(agent, 40))} (agents: ${AGENT_NAMES.join(', ')})`);
    const body = await readBody(req, ctx.bodyLimit, ctx.budget);
    const a = answerHook(ctx.service, agent, body, ctx.hookLog);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(a.body)) };
    if (a.unchecked !== undefined) headers['loopwatch-unchecked'] = uncheckedHeader(a.unchecked);
    if (a.logError !== undefined) headers['loopwatch-log-error'] = uncheckedHeader(a.logError); // the decision, not its line, stands
    res.writeHead(200, headers);
    res.end(a.body);
  },
  'POST /v1/decide/batch': async (req, res, ctx) => {
    const body = await jsonBody(req, ctx);
    const calls = checked(() => readPhasedBatch(body));
    sendJson(res, 200, { results: ctx.service.decideBatch(calls) });
  },
  'GET /v1/sessions/{id}/snapshot': (_req, res, ctx, param) => {
    const id = sessionParam(param);
    const bytes = ctx.service.snapshot(id);
    if (bytes === null) throw new HttpRefusal(404, 'no_session', `session ${JSON.stringify(cutText(id, 80))} is not live`, 'session');
    sendBytes(res, 200, bytes);
  },
  'PUT /v1/sessions/{id}/snapshot': async (req, res, ctx, param) => {
    const id = sessionParam(param);
    const bytes = await readBody(req, ctx.bodyLimit, ctx.budget);
    try {
      ctx.service.restore(id, bytes);
    } catch (e) {
      if (e instanceof SnapshotError) throw new HttpRefusal(400, 'bad_snapshot', e.message, 'body');
      throw e;
    }
    sendJson(res, 200, { restored: id });
  },
  'DELETE /v1/sessions/{id}': (_req, res, ctx, param) => sendJson(res, 200, { ended: ctx.service.end(sessionParam(param)) }),
};

/** The table's routes with their handlers and path expressions. */
const ROUTES = ROUTE_SPECS.map((r) => ({ method: r.method, path: pathPattern(r.path), handle: HANDLERS[`${r.method} ${r.path}` as RouteKey] }));

/** Every path of the table, once each, as the 404 message lists them. */
const PATHS = [...new Set(ROUTE_SPECS.map((r) => r.path))].join(', ');

/** Runs the route for the request; a refusal for an unknown path (404) or method (405). */
export async function route(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] as string;
  const allowed: string[] = [];
  for (const r of ROUTES) {
    const m = r.path.exec(path);
    if (m === null) continue;
    if (r.method !== req.method) {
      allowed.push(r.method);
      continue;
    }
    if (r.method === 'POST') requireJson(req);
    await r.handle(req, res, ctx, m[1] ?? '');
    return;
  }
  if (allowed.length > 0) throw new HttpRefusal(405, 'method_not_allowed', `${req.method ?? '?'} is not allowed on ${cutText(path, 120)}; use ${allowed.join(' or ')}`, undefined, { allow: allowed.join(', ') });
  throw new HttpRefusal(404, 'not_found', `no route ${cutText(path, 120)} (routes: ${PATHS})`);
}

/** Route patterns as metrics label them (never a session id): a pattern's path, or the path itself when it has no `{name}`. */
const LABELS: readonly (readonly [RegExp, string])[] = [...new Set(ROUTE_SPECS.map((r) => r.path))].map((p) => [p === '/v1/hooks/{agent}' ? /^\/v1\/hooks\/(?:claude-code|codex|gemini)$/ : pathPattern(p), p.includes('{') && !p.startsWith('/v1/hooks/') ? p : ''] as const);

/** The route a request's URL matches, as a bounded metrics label (`other` for paths with no route). */
export function routeLabel(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] as string;
  for (const [re, label] of LABELS) if (re.test(path)) return label === '' ? path : label;
  return 'other';
}

/** Paths served without the token. */
const OPEN = ROUTE_SPECS.filter((r) => 'open' in r && r.open).map((r) => r.path as string);

/** Whether a request's path needs no token. */
export function isOpenPath(url: string | undefined): boolean {
  return OPEN.includes((url ?? '').split('?')[0] as string);
}
