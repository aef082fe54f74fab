/**
 * The flags of `loopwatch serve`, as data: the parser takes its spec from this table, the checks that a
 * flag is not given to the wrong mode take its `mode`, and `loopwatch serve --help` lists every entry, so
 * a flag cannot be parsed without being in the help.
 */
import { PRESETS } from './detection-options.js';
import type { FlagSpec } from './flags.js';
import { NATS_CONNECTION_FLAGS } from './nats-flags.js';

/** One flag: its name, its value's name in help (none for a switch), which mode takes it, and its help. */
export interface ServeFlag {
  readonly name: string;
  /** What the help writes after the flag (`N`, `FILE`); absent for a switch. */
  readonly value?: string;
  /** `http`: the HTTP server only; `nats`: a NATS worker only (with --nats); `both`. */
  readonly mode: 'http' | 'nats' | 'both';
  /** Lines of help, the first beside the flag. */
  readonly help: readonly string[];
  /** May be given more than once. */
  readonly multiple?: boolean;
}

/** Every flag of `loopwatch serve`, in the order help lists them. */
export const SERVE_FLAG_TABLE: readonly ServeFlag[] = [
  { name: 'host', value: 'ADDR', mode: 'http', help: ['address to listen on (default: 127.0.0.1; another needs --token-file)'] },
  { name: 'port', value: 'N', mode: 'http', help: ['TCP port, 0 for any free one (default: 7878)'] },
  {
    name: 'token-file',
    value: 'FILE',
    mode: 'both',
    help: ['require "Authorization: Bearer <token>", the token being the file\'s first line (default: a', 'token made once in $XDG_STATE_HOME/loopwatch/serve.token, 0600, or ~/.local/state/...;', 'serve.curl-header beside it holds the header line for curl -H @FILE); a NATS worker\'s', '/metrics (--metrics-port) needs the same token'],
  },
  { name: 'no-token', mode: 'both', help: ['serve without a token (loopback only): any local user can then use the server (or read', 'a NATS worker\'s /metrics)'] },
  {
    name: 'allow-host',
    value: 'NAME',
    mode: 'http',
    multiple: true,
    help: ['a name requests may give in Host and Origin beside loopback ones and --host (repeat, or', 'NAME,NAME); * for any name, with --token-file only. Others get 403 (DNS rebinding)'],
  },
  { name: 'state-dir', value: 'DIR', mode: 'http', help: ['sessions kept across restarts (default: $XDG_STATE_HOME/loopwatch/serve-PORT,', 'or ~/.local/state/loopwatch/serve-PORT; none with --port 0)'] },
  { name: 'no-state', mode: 'http', help: ['keep nothing across restarts'] },
  { name: 'log', value: 'FILE', mode: 'http', help: ['append the hook routes\' decisions to FILE, as `loopwatch hook --log` does (default: none)'] },
  { name: 'body-limit', value: 'BYTES', mode: 'http', help: ['largest request body (default: 4194304)'] },
  { name: 'max-in-flight', value: 'N', mode: 'http', help: ['requests handled at once; more get 503 (default: 256)'] },
  {
    name: 'session-memory',
    value: 'BYTES',
    mode: 'both',
    help: ['what the sessions may hold together (about 9 KB each, and their calls\' content); past it', 'the least recently used are dropped (default: a quarter of the heap limit, --max-old-space-size)'],
  },
  { name: 'max-sessions', value: 'N', mode: 'both', help: ['sessions held at once; the least recently used is dropped first (default: 100000)'] },
  { name: 'preset', value: 'NAME', mode: 'both', help: ['detection preset (default: default), one of', Object.keys(PRESETS).join(', ')] },
  { name: 'config', value: 'FILE', mode: 'both', help: ['detection options as JSON (may name a "preset"; refines it); its "families"', 'give a session its agent\'s family\'s options (a call\'s "agent", a hook route\'s', 'agent; HTTP only)'] },
  {
    name: 'nats',
    value: 'URL',
    mode: 'nats',
    help: ['be a worker of the NATS JetStream service on this server (nats://HOST:PORT, or several', 'separated by commas) instead of an HTTP server; a user and password, or a token, in the', 'URL are used (printed redacted)'],
  },
  { name: 'partitions', value: 'N', mode: 'nats', help: ['partitions of the calls stream, fixed when it is made (default: 16)'] },
  { name: 'snapshot-every', value: 'N', mode: 'nats', help: ['write a session\'s snapshot every N of its calls (default: 100)'] },
  { name: 'lease-ms', value: 'MS', mode: 'nats', help: ['a partition\'s lease: not renewed for this long, another worker takes it', '(default: 5000)'] },
  {
    name: 'stream-max-bytes',
    value: 'N',
    mode: 'nats',
    help: ['what each stream may store, in bytes; past it a new call is refused (the caller gets', 'a StoreFullError) while checked calls are purged (default: 1073741824, 1 GiB)'],
  },
  {
    name: 'sessions-max-bytes',
    value: 'N',
    mode: 'nats',
    help: ['what the sessions bucket (stored session states) may hold, in bytes; past 7/8 of it a', 'new session\'s state is not stored (it is answered, and reported once), the rest kept for', 'the sessions it holds (default: 1073741824, 1 GiB; at least 1048576)'],
  },
  {
    name: 'metrics-port',
    value: 'N',
    mode: 'nats',
    help: ['serve GET /metrics (Prometheus: calls, verdicts, sessions, partitions owned, moves) and', 'GET /healthz on 127.0.0.1:N (0: any free one, said at start); /metrics needs the token'],
  },
  { name: 'worker-id', value: 'ID', mode: 'nats', help: ['this worker\'s name in the leases (default: HOST-PID-RANDOM)'] },
  // the connection: credentials, TLS, the wait for a server at start (nats-flags.ts reads them)
  ...NATS_CONNECTION_FLAGS.map((f): ServeFlag => ({ ...f, mode: 'nats' })),
];

/** The table as the flag parser's spec. */
export const SERVE_FLAGS: FlagSpec = Object.fromEntries(SERVE_FLAG_TABLE.map((f) => [f.name, { type: f.value === undefined ? 'boolean' : 'string', ...(f.multiple === true ? { multiple: true } : {}) }]));

/** Names of the flags only a NATS worker takes (beside --nats itself). */
export const NATS_ONLY: readonly string[] = SERVE_FLAG_TABLE.filter((f) => f.mode === 'nats' && f.name !== 'nats').map((f) => f.name);
/** Names of the flags only the HTTP server takes. */
export const HTTP_ONLY: readonly string[] = SERVE_FLAG_TABLE.filter((f) => f.mode === 'http').map((f) => f.name);
