/**
 * `loopwatch serve --help`, written from the tables the server and the parser use (the routes of
 * src/serve/route-table.ts, the flags of serve-flags.ts), so it lists every route and every flag.
 */
import { ROUTE_SPECS } from '../serve/route-table.js';
import { SERVE_FLAG_TABLE, type ServeFlag } from './serve-flags.js';

/** The column the descriptions of flags start at (as in the other commands' help), and of routes. */
const COLUMN = 25;
const ROUTE_COLUMN = 34;

/** `left` padded to `column` (on a line of its own when longer), then the lines of `help`. */
function entry(left: string, help: readonly string[], column = COLUMN): string {
  const pad = ' '.repeat(column);
  const first = left.length + 1 < column ? left.padEnd(column) : `${left}\n${pad}`;
  return `${first}${help.join(`\n${pad}`)}`;
}

function flagLines(mode: ServeFlag['mode']): string {
  return SERVE_FLAG_TABLE.filter((f) => f.mode === mode)
    .map((f) => entry(`  --${f.name}${f.value === undefined ? '' : ` ${f.value}`}`, f.help))
    .join('\n');
}

/** The help text of `loopwatch serve`. */
export function serveHelp(): string {
  const routes = ROUTE_SPECS.map((r) => entry(`  ${r.method} ${r.path}`, [r.summary], ROUTE_COLUMN)).join('\n');
  return `Usage: loopwatch serve [options]
       loopwatch serve --nats URL [options]

Loop detection as an HTTP service: one engine holds every session in memory. Routes (JSON bodies, sent
with Content-Type: application/json):
${routes}
A bad body gets 400 naming the field, a body over --body-limit 413, an overloaded server 503 with
Retry-After. SIGTERM or SIGINT: stop accepting, answer what is in flight, write every live session to
the state directory (restored at the next start), exit 0. With --nats URL, a worker of the NATS JetStream
service instead (docs/service.md).

HTTP server options:
${flagLines('http')}

NATS worker options (with --nats URL):
${flagLines('nats')}

Options of both:
${flagLines('both')}
  -h, --help             this help

BYTES: a size in bytes (4194304), or with K, M or G (KiB, MiB, GiB: 64M, 2G).

Examples:
  loopwatch serve --port 7878
  curl -s localhost:7878/v1/check --json '{"session":"run-1","tool":"bash","args":{"command":"ls"}}'
  loopwatch serve --nats nats://127.0.0.1:4222 --partitions 16
`;
}
