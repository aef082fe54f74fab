/**
 * `loopwatch serve --help` lists every route the server serves and every flag the parser takes, because
 * all three are written from the same tables (src/serve/route-table.ts, src/cli/serve-flags.ts). Before,
 * the help was a text of its own and missed /v1/propose, /v1/record, /v1/decide/batch, /v1/hooks/*,
 * /metrics and the NATS flags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSettings } from '../src/cli/serve-command.js';
import { ROUTE_SPECS } from '../src/serve/route-table.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { loopwatch } from './helpers/cli.js';
import { request } from './helpers/http.js';

let server: ServeServer;
let help: string;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
  const r = loopwatch(['serve', '--help']);
  expect(r.code).toBe(0);
  help = r.stdout;
});
afterAll(async () => {
  await server.stop();
});

/** The routes the help lists: `METHOD /path` at the start of a line. */
function helpRoutes(text: string): string[] {
  return [...text.matchAll(/^ {2}(GET|POST|PUT|DELETE) (\/\S*)/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('loopwatch serve --help', () => {
  it('should list exactly the routes of the route table, among them the ones it used to miss', () => {
    expect(helpRoutes(help)).toEqual(ROUTE_SPECS.map((r) => `${r.method} ${r.path}`));
    for (const r of ['POST /v1/propose', 'POST /v1/record', 'POST /v1/decide/batch', 'POST /v1/hooks/{agent}', 'GET /metrics']) expect(helpRoutes(help)).toContain(r);
  });

  it('should list routes the server serves, and the server serve no route the help does not list', async () => {
    for (const r of ROUTE_SPECS) {
      const path = r.path.replace('{agent}', 'codex').replace('{id}', 'no-such-session');
      const res = await request(`${server.url}${path}`, r.method, r.method === 'POST' || r.method === 'PUT' ? '{}' : undefined);
      // a route that exists may refuse the body or miss the session, never answer "no route"
      expect(res.body?.error?.code, `${r.method} ${path}`).not.toBe('not_found');
      expect(res.body?.error?.code, `${r.method} ${path}`).not.toBe('method_not_allowed');
    }
    const none = await request(`${server.url}/v2/check`, 'POST', '{}');
    expect(none.status).toBe(404);
    const listed = /\(routes: (.*)\)$/.exec(none.body.error.message)?.[1]?.split(', ');
    expect(listed).toEqual([...new Set(ROUTE_SPECS.map((r) => r.path))]);
  });

  it('should list every flag the parser takes, each accepted by it, the NATS ones among them', () => {
    const flags = [...help.matchAll(/^ {2}--([a-z-]+)( [A-Z]+)?/gm)].map((m) => ({ name: m[1] as string, value: m[2] !== undefined }));
    for (const f of ['nats', 'partitions', 'snapshot-every', 'lease-ms', 'worker-id', 'max-sessions', 'state-dir']) expect(flags.map((x) => x.name)).toContain(f);
    for (const f of flags) {
      // an unknown flag is a UsageError naming it; a known one may only be refused for its value or its mode
      let message = '';
      try {
        serveSettings([`--${f.name}`, ...(f.value ? ['1'] : [])]);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, f.name).not.toMatch(/unknown flag/);
    }
    let unknown = '';
    try {
      serveSettings(['--not-a-flag']);
    } catch (e) {
      unknown = (e as Error).message;
    }
    expect(unknown).toMatch(/unknown flag --not-a-flag/);
  });
});
