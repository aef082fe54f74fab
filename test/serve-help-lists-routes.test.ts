/**
 * `loopwatch serve --help` lists every route the server serves and every flag the parser takes, because
 * all three are written from the same tables (src/serve/route-table.ts, src/cli/serve-flags.ts). Before,
 * the help was a text of its own and missed /v1/propose, /v1/record, /v1/decide/batch, /v1/hooks/*,
 * /metrics and the NATS flags. The NATS connection flags (credentials, TLS, --nats-connect-wait) are in the
 * same table as NATS-only flags: listed under the worker's options, refused without --nats, read with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_CONNECTION_FLAGS } from '../src/cli/nats-flags.js';
import { serveSettings } from '../src/cli/serve-command.js';
import { SERVE_FLAG_TABLE } from '../src/cli/serve-flags.js';
import { ROUTE_SPECS } from '../src/serve/route-table.js';
import { ServeServer } from '../src/serve/serve-server.js';
import { loopwatchInProcess } from './helpers/cli-in-process.js';
import { request } from './helpers/http.js';

let server: ServeServer;
let help: string;
beforeAll(async () => {
  server = await ServeServer.start({ port: 0 });
  const r = await loopwatchInProcess(['serve', '--help']);
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

  it('should list each flag under its mode, and the parser refuse it in the other mode: the NATS connection flags are NATS-only', () => {
    const section = (title: string): string => help.slice(help.indexOf(title), help.indexOf('\n\n', help.indexOf(title)));
    const sections = { http: section('HTTP server options:'), nats: section('NATS worker options'), both: section('Options of both:') };
    const named = (text: string, name: string): boolean => new RegExp(`^ {2}--${name}(?: |$)`, 'm').test(text);
    for (const f of SERVE_FLAG_TABLE) {
      for (const [mode, text] of Object.entries(sections)) expect(named(text, f.name), `--${f.name} under ${mode}`).toBe(mode === f.mode);
    }
    for (const f of NATS_CONNECTION_FLAGS) expect(SERVE_FLAG_TABLE.find((x) => x.name === f.name)?.mode, f.name).toBe('nats');
    const refusal = (args: string[]): string => {
      try {
        serveSettings(args);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const f of SERVE_FLAG_TABLE) {
      const given = [`--${f.name}`, ...(f.value === undefined ? [] : ['1'])];
      if (f.mode === 'nats' && f.name !== 'nats') expect(refusal(given), f.name).toBe(`--${f.name} is for a NATS worker: give --nats URL too`);
      if (f.mode === 'http') expect(refusal(['--nats', 'nats://127.0.0.1:4222', ...given]), f.name).toBe(`--${f.name} is for the HTTP server, not a NATS worker (--nats)`);
    }
    // with --nats, the connection flags reach the worker's options
    const s = serveSettings(['--nats', 'nats://127.0.0.1:4222', '--nats-connect-wait', '5', '--nats-creds', '/dev/null', '--nats-tls-ca', '/x/ca.pem']);
    expect(s.kind).toBe('nats');
    expect(s.kind === 'nats' && s.options.connectWaitMs).toBe(5_000);
    expect(s.kind === 'nats' && s.options.auth).toEqual({ credsFile: '/dev/null', tlsCaFile: '/x/ca.pem' });
  });
});
