/**
 * The routes of `loopwatch serve`, as data: the router (http-routes.ts) attaches a handler to each, the
 * metrics label requests by their patterns, and `loopwatch serve --help` lists them, so the three cannot
 * drift apart. A path's `{name}` parts are one percent-encoded path segment each.
 */

/** One route: its method and path pattern, what it takes and what it answers, for people. */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path, `{name}` for a segment (`/v1/sessions/{id}`). */
  readonly path: string;
  /** The body and the answer, in a line. */
  readonly summary: string;
  /** Served without the bearer token. */
  readonly open?: boolean;
}

/** Every route, in the order help lists them. */
export const ROUTE_SPECS = [
  { method: 'POST', path: '/v1/check', summary: 'a call {session, id?, tool, args?, result?, error?, ...} -> {id?, verdict}' },
  { method: 'POST', path: '/v1/check/batch', summary: '{calls: [...]} -> {results: [{id?, verdict} | {id?, error}]}' },
  { method: 'POST', path: '/v1/propose', summary: 'a call before it runs -> a decision {action: allow|warn|ask|deny|stop, ...}' },
  { method: 'POST', path: '/v1/record', summary: 'a call with its result or error, after it ran -> a decision' },
  { method: 'POST', path: '/v1/decide/batch', summary: '{calls: [{phase: propose|record, ...}]} -> {results: [decision | {error}]}' },
  { method: 'POST', path: '/v1/hooks/{agent}', summary: 'a hook payload of claude-code, codex or gemini -> the hook\'s output' },
  { method: 'GET', path: '/v1/sessions/{id}/snapshot', summary: 'a live session\'s snapshot bytes (404 when not live)' },
  { method: 'PUT', path: '/v1/sessions/{id}/snapshot', summary: 'snapshot bytes -> the session restored (or started)' },
  { method: 'DELETE', path: '/v1/sessions/{id}', summary: 'end a session -> {ended}' },
  { method: 'GET', path: '/metrics', summary: 'Prometheus text (loopwatch_* series)' },
  { method: 'GET', path: '/healthz', summary: 'liveness and counts (no token needed)', open: true },
] as const satisfies readonly RouteSpec[];

/** A route's key, `METHOD path`, as the router names its handlers. */
export type RouteKey = KeyOf<(typeof ROUTE_SPECS)[number]>;

/** `METHOD path` of each route of a union, one by one. */
type KeyOf<S> = S extends { readonly method: infer M extends string; readonly path: infer P extends string } ? `${M} ${P}` : never;

/**
 * The regular expression of a path pattern: each `{name}` one segment, captured. Only the paths of
 * ROUTE_SPECS are given (`\{[^}]+\}` is quadratic in a run of `{` without `}`; no request reaches it).
 */
export function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
}
