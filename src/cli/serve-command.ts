/**
 * `loopwatch serve`: loop detection as an HTTP service (routes in src/serve/http-routes.ts), or with `--nats
 * URL` a worker of the NATS JetStream service (src/serve/nats/). Runs until
 * SIGTERM or SIGINT, then stops accepting, finishes what is in flight, writes every live session to the
 * state directory (restored at the next start) and exits 0; 1 when a session could not be written (each is
 * named on stderr).
 */
import { NotPrivateError, OptionRangeError } from '../errors.js';
import { join, resolve } from 'node:path';
import { BearerToken, isLoopback } from '../serve/bearer-token.js';
import { type ServeTokenFile, serveTokenFile } from '../serve/serve-token-file.js';
import { readFailure } from '../formats/regular-file.js';
import { DEFAULT_PORT, type ServeOptions, defaultSessionMemory } from '../serve/serve-options.js';
import { ServeServer, type StopReport } from '../serve/serve-server.js';
import { familyDetection } from './detection-options.js';
import { AGENTS } from '../hooks/agents.js';
import { decisionLogCapProblem } from '../hooks/decision-log.js';
import { hookDetection } from '../hooks/hook-detection.js';
import { loopwatchStateHome } from '../hooks/state-dir.js';
import type { LoopEngineOptions } from '../engine/engine-options.js';
import { redactConnection, shownServers } from '../serve/nats/nats-auth.js';
import type { NatsWorker as NatsWorkerType, NatsWorkerOptions, WorkerEvent } from '../serve/nats/nats-worker.js';
import { DEFAULT_PARTITIONS, DEFAULT_SESSIONS_MAX_BYTES, DEFAULT_STREAM_MAX_BYTES, MIN_STORE_BYTES } from '../serve/nats/subjects.js';
import { type ParsedFlags, byteSizeFlag, integerFlag, parseFlags, stringOf } from './flags.js';
import { connectWaitMs, natsAuth } from './nats-flags.js';
import { HTTP_ONLY, NATS_ONLY, SERVE_FLAGS } from './serve-flags.js';
import type { CommandIo } from './scan-command.js';
import { UsageError, peerAsUsage } from './usage-error.js';
import { NATS_PEERS, importPeers } from '../peers/optional-peers.js';
import { acquireText, lostText, releaseText, workersText } from '../serve/nats/move-reason.js';
import { LineBudget } from './line-budget.js';
import { EvictionNotice } from './eviction-notice.js';
import { type StartedMetrics, type WorkerMetricsSettings, metricsUsable, startWorkerMetrics } from './worker-metrics.js';
import type { LoopDetectorOptions } from '../options/options.js';
import { terminalSafe } from '../text/terminal-text.js';
import { fileFailure, isInFolder } from '../text/file-failure.js';
import { parentGone } from './parent-watch.js';
import { shownMessage } from '../text/shown-message.js';
import { resolveOptions } from '../options/resolve-options.js';
import { sessionCapacity, sessionSizeText } from '../wasm/session-capacity.js';
import { connectProblem, listenFailure } from '../text/network-failure.js';

/** The default state directory for a port: `$XDG_STATE_HOME/loopwatch/serve-<port>` (or `~/.local/state/...`). */
export function defaultStateDir(port: number, env: NodeJS.ProcessEnv = process.env): string {
  return join(loopwatchStateHome(env), `serve-${port}`);
}

/** The flags of a `loopwatch serve` run: HTTP server options, or NATS worker options with --nats. */
export type ServeSettings =
  /** `defaultToken`: no --token-file nor --no-token, so the token is the user's own file (serve-token-file.ts), read or made at start. */
  | { readonly kind: 'http'; readonly options: ServeOptions; readonly defaultToken: boolean }
  | { readonly kind: 'nats'; readonly options: NatsWorkerOptions; readonly metrics?: WorkerMetricsSettings };

/**
 * The live sessions the engine keeps: `requested` when the WebAssembly memory holds that many under the
 * detection options; else what it holds, or a UsageError naming the flag and the window when it was `given`.
 */
function heldSessions(options: LoopDetectorOptions, requested: number, given: boolean): number {
  const resolved = resolveOptions(options);
  const most = Math.max(1, sessionCapacity(resolved));
  if (requested <= most) return requested;
  if (!given) return most;
  throw new UsageError(`--max-sessions ${requested}: ${sessionSizeText(resolved)}, so a thread holds at most ${most} sessions`);
}

/** Parses `loopwatch serve` flags. Throws UsageError naming the flag. */
export function serveSettings(args: readonly string[]): ServeSettings {
  const { values: v } = parseFlags(args, SERVE_FLAGS, false);
  const nats = stringOf(v, 'nats');
  // the coding agents' edit tools change the workspace (a new edit after a block: a fresh start), as in `loopwatch hook`
  const found = familyDetection(stringOf(v, 'preset'), stringOf(v, 'config'));
  const detection = hookDetection(found.pooled, Object.values(AGENTS));
  // a config's families: an engine each (HTTP only), holding as many sessions as the pooled one
  const families = new Map<string, LoopDetectorOptions>();
  for (const [name, o] of found.families) families.set(name, hookDetection(o, Object.values(AGENTS)));
  let maxSessions = integerFlag('--max-sessions', stringOf(v, 'max-sessions'), 100_000, 1, 10_000_000);
  for (const o of [detection, ...families.values()]) maxSessions = heldSessions(o, maxSessions, v['max-sessions'] !== undefined);
  const engine = { ...detection, maxSessions };
  const given = (names: readonly string[]): string | undefined => names.find((n) => v[n] !== undefined);
  if (nats === undefined) {
    const stray = given(NATS_ONLY);
    if (stray !== undefined) throw new UsageError(`--${stray} is for a NATS worker: give --nats URL too`);
    const defaultToken = v['token-file'] === undefined && v['no-token'] !== true;
    return { kind: 'http', options: { ...serveOptions(v, engine), ...(families.size === 0 ? {} : { families }) }, defaultToken };
  }
  const stray = given(HTTP_ONLY);
  if (stray !== undefined) throw new UsageError(`--${stray} is for the HTTP server, not a NATS worker (--nats)`);
  if (!nats.split(',').every((u) => /^(nats|tls):\/\/[^\s]+$/.test(u) || /^[\w.-]+:\d+$/.test(u))) throw new UsageError(`--nats must be a server URL such as nats://127.0.0.1:4222 (or several, separated by commas), received "${shownServers(nats)}"`);
  const metricsPort = stringOf(v, 'metrics-port');
  const tokenStray = given(['token-file', 'no-token']);
  if (metricsPort === undefined && tokenStray !== undefined) throw new UsageError(`--${tokenStray} is for a NATS worker's /metrics: give --metrics-port N too`);
  const workerId = stringOf(v, 'worker-id');
  if (workerId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(workerId)) throw new UsageError(`--worker-id must be 1 to 64 letters, digits, _ or -, received "${workerId}"`);
  return {
    kind: 'nats',
    options: {
      servers: nats,
      auth: natsAuth(v),
      connectWaitMs: connectWaitMs(v),
      engine,
      partitions: integerFlag('--partitions', stringOf(v, 'partitions'), DEFAULT_PARTITIONS, 1, 1024),
      snapshotEvery: integerFlag('--snapshot-every', stringOf(v, 'snapshot-every'), 100, 1, 1_000_000),
      leaseMs: integerFlag('--lease-ms', stringOf(v, 'lease-ms'), 5_000, 300, 600_000),
      maxBytes: byteSizeFlag('--stream-max-bytes', stringOf(v, 'stream-max-bytes'), DEFAULT_STREAM_MAX_BYTES, MIN_STORE_BYTES),
      sessionsMaxBytes: byteSizeFlag('--sessions-max-bytes', stringOf(v, 'sessions-max-bytes'), DEFAULT_SESSIONS_MAX_BYTES, MIN_STORE_BYTES),
      sessionMemory: byteSizeFlag('--session-memory', stringOf(v, 'session-memory'), defaultSessionMemory(), 1 << 20),
      ...(workerId === undefined ? {} : { workerId }),
    },
    ...(metricsPort === undefined ? {} : { metrics: { port: integerFlag('--metrics-port', metricsPort, 0, 0, 65_535), ...tokenOf(v), defaultToken: v['token-file'] === undefined && v['no-token'] !== true } }),
  };
}

/** The token of --token-file (a UsageError naming what is wrong with the file); none without it. Refuses it beside --no-token. */
function tokenOf(v: ParsedFlags['values']): { token?: BearerToken } {
  const tokenFile = stringOf(v, 'token-file');
  if (tokenFile === undefined) return {};
  if (v['no-token'] === true) throw new UsageError('--token-file and --no-token cannot be used together');
  try {
    return { token: BearerToken.fromFile(tokenFile) };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The names of `--allow-host` (repeated, or comma-separated). Throws UsageError for one that is not a host name. */
function allowedHosts(given: ParsedFlags['values'][string]): string[] {
  const out: string[] = [];
  for (const text of Array.isArray(given) ? given : []) {
    for (const name of String(text).split(',').map((n) => n.trim())) {
      if (name !== '*' && !/^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/.test(name)) throw new UsageError(`--allow-host must be a host name or address (or *), received "${name.slice(0, 80)}"`);
      out.push(name);
    }
  }
  return out;
}

/** The hook routes' decision log, `--log FILE` (its absolute path: the server's folder may change), none when not given or empty. */
function hookLogOf(v: ParsedFlags['values']): { hookLog?: string } {
  const given = stringOf(v, 'log');
  return given === undefined || given === '' ? {} : { hookLog: resolve(given) };
}

function serveOptions(v: ParsedFlags['values'], engine: LoopEngineOptions): ServeOptions {
  const host = stringOf(v, 'host') ?? '127.0.0.1';
  const port = integerFlag('--port', stringOf(v, 'port'), DEFAULT_PORT, 0, 65_535);
  const { token } = tokenOf(v);
  if (token === undefined && !isLoopback(host)) throw new UsageError(`--host ${host} is not a loopback address: give --token-file so that only callers with the token are served`);
  const allowHosts = allowedHosts(v['allow-host']);
  if (token === undefined && allowHosts.includes('*')) throw new UsageError('--allow-host * serves requests whatever host they name, which only a token makes safe: give --token-file too');
  if (v['no-state'] === true && stringOf(v, 'state-dir') !== undefined) throw new UsageError('--no-state and --state-dir cannot be used together');
  // a port the system chooses (--port 0) names no folder of its own: every such server would share serve-0
  // and restore the others' sessions, so it keeps state only in a folder given
  const stateDir = v['no-state'] === true ? undefined : (stringOf(v, 'state-dir') ?? (port === 0 ? undefined : defaultStateDir(port)));
  return {
    host,
    port,
    token,
    allowHosts,
    stateDir,
    bodyLimit: byteSizeFlag('--body-limit', stringOf(v, 'body-limit'), 4 << 20, 1024, 1 << 30),
    maxInFlight: integerFlag('--max-in-flight', stringOf(v, 'max-in-flight'), 256, 1, 1_000_000),
    sessionMemory: byteSizeFlag('--session-memory', stringOf(v, 'session-memory'), defaultSessionMemory(), 1 << 20),
    engine,
    ...hookLogOf(v),
  };
}

/** Session ids named at most per problem of a stop. */
const SESSIONS_NAMED = 3;

/**
 * A file of the state folder that stopped a start (a state file that could be neither read nor set aside,
 * the folder not writable by its owner), in words with what to do and serve's own ways out; it was said
 * as `cannot listen on 127.0.0.1:8787 (EACCES)`, the port blamed for the folder.
 */
function stateFolderFailure(e: unknown, dir: string): string {
  const f = fileFailure(e);
  return terminalSafe(`the state folder ${dir} cannot be used (${f.text})${f.fix === null ? '' : `; ${f.fix}`}, or give another (--state-dir DIR), or --no-state`);
}

/** Says what a stop wrote; the exit code (1 when a session could not be written). */
function reportStop(r: StopReport, dir: string | undefined, io: CommandIo): number {
  // the id is the client's and the problem may quote it: redacted, its control characters as escapes; the
  // sessions one problem kept from being written said once, with a few of their ids (a refusing folder
  // was one line per session, each with Node's text)
  const byProblem = new Map<string, { ids: string[]; all: number }>();
  for (const f of r.failed) {
    const p = byProblem.get(f.problem) ?? { ids: [], all: 0 };
    if (p.ids.length < SESSIONS_NAMED) p.ids.push(f.sessionId);
    p.all++;
    byProblem.set(f.problem, p);
  }
  for (const [problem, { ids, all }] of byProblem) {
    const named = ids.slice(0, SESSIONS_NAMED).map((id) => shownMessage(JSON.stringify(id))).join(', ');
    const who = all === 1 ? `session ${named}` : `${all} sessions (${named}${all > SESSIONS_NAMED ? `, and ${all - SESSIONS_NAMED} more` : ''})`;
    io.stderr.write(`loopwatch serve: ${who} could not be written${dir === undefined ? '' : ` to ${terminalSafe(dir)}`}: ${shownMessage(problem)}\n`);
  }
  const where = dir === undefined ? 'not kept (--no-state)' : `written to ${dir}`;
  io.stderr.write(`loopwatch serve: stopped; ${r.persisted} sessions ${where}${r.cut > 0 ? `; ${r.cut} requests were cut at the drain limit` : ''}\n`);
  return r.failed.length === 0 ? 0 : 1;
}

/**
 * A NATS worker's event as `serve` says it on stderr, one line: a partition taken, given up or lost and why
 * (`partition 3 acquired: worker "b" stopped answering (its lease not renewed for 5.2 s)`), workers joining
 * or going, a session lost named by its id (the publisher's) and its problem. What came from the bucket or
 * a publisher (worker ids, session ids, problems) is cut, redacted and has its control characters as escapes.
 */
export function natsEventLine(e: WorkerEvent): string {
  switch (e.type) {
    case 'acquired':
      return `partition ${e.partition} acquired: ${shownMessage(acquireText(e.reason))}`;
    case 'released':
      return `partition ${e.partition} released: ${shownMessage(releaseText(e.reason))}`;
    case 'lost':
      return `partition ${e.partition} lost: ${shownMessage(lostText(e.reason))}`;
    case 'workers':
      return shownMessage(workersText(e.change) ?? `${e.change.live} live workers`);
    case 'session-lost':
      return `session ${shownMessage(JSON.stringify(e.sessionId))} (partition ${e.partition}): state not kept: ${shownMessage(connectProblem(e.problem))}`;
    case 'sessions-full':
      return shownMessage(e.problem);
  }
}

/** Resolves with the name of the first SIGTERM or SIGINT, or why npx that started the server is gone (parent-watch.ts). */
function stopSignal(): Promise<string> {
  const signal = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  return Promise.race([signal, parentGone()]); // npx ended by a signal it does not pass on (parent-watch.ts)
}

/**
 * A NATS worker until SIGTERM or SIGINT; then it releases its partitions (their sessions written) and exits
 * 0; when the server goes away (or does not answer) for 5 s during that, it stops anyway, saying so and
 * which partitions it could not hand back on stderr, and exits 1. A server that cannot be reached at start is tried again (each attempt said on stderr) for
 * --nats-connect-wait seconds, then the worker exits 1 (a runtime failure: the setup may well be right);
 * credentials refused, no JetStream or a stream partitioned another way are a usage error (2).
 */
async function natsWorker(options: NatsWorkerOptions, metrics: WorkerMetricsSettings | undefined, io: CommandIo): Promise<number> {
  // lines quote the --nats URL and the client's errors (which quote it): control characters as escapes
  const say = (line: string): void => void io.stderr.write(`loopwatch serve: ${terminalSafe(line)}\n`);
  // partition moves come in bursts (every partition at a start, a join, a stop): a budget of lines, those left out counted
  const events = new LineBudget(say);
  if (metrics !== undefined) metricsUsable();
  const shown = shownServers(options.servers);
  const redact = (text: string): string => redactConnection(text, options.servers, options.auth);
  const stopped = stopSignal();
  // the NATS client is loaded only by a worker (optional peer dependencies: missing, a usage error naming them)
  const { NatsWorker } = await importPeers('--nats', NATS_PEERS, () => import('../serve/nats/nats-worker.js')).catch((e: unknown) => {
    throw peerAsUsage(e);
  });
  let worker: NatsWorkerType;
  // a signal while no server can be reached ends the trying at once (before: held for --nats-connect-wait)
  const connecting = new AbortController();
  let stopSignalName: string | undefined;
  void stopped.then((s) => {
    stopSignalName = s;
    connecting.abort();
  });
  try {
    worker = await NatsWorker.start({
      ...options,
      connectSignal: connecting.signal,
      onConnectRetry: (attempt, delayMs, problem) => say(`--nats ${shown}: ${problem}; trying again in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt}, up to --nats-connect-wait ${(options.connectWaitMs ?? 0) / 1000} s)`),
      onEvent: (e) => void events.say(natsEventLine(e)),
    });
  } catch (e) {
    if ((e as Error).name === 'NatsConnectStoppedError') {
      say(`${stopSignalName ?? 'stopped'}: stopped before a NATS server was reached at ${shown}; nothing was held`);
      return 0;
    }
    if ((e as Error).name === 'NatsUnreachableError') {
      say(`--nats ${shown}: ${redact((e as Error).message)}`);
      return 1;
    }
    // credentials refused, no JetStream, a stream partitioned another way: the setup, not a bug
    throw new UsageError(`--nats ${shown}: ${redact((e as Error).message)}`);
  }
  let served: StartedMetrics | undefined;
  if (metrics !== undefined) {
    try {
      served = await startWorkerMetrics(worker, metrics);
    } catch (e) {
      await worker.stop(); // its partitions handed back: the others take them at once
      throw e;
    }
  }
  say(`NATS worker on ${shown}, ${options.partitions ?? DEFAULT_PARTITIONS} partitions, snapshots every ${options.snapshotEvery ?? 100} calls`);
  for (const line of served?.lines ?? []) say(line);
  const signal = await stopped;
  say(`${signal}: releasing partitions ${worker.partitions().join(', ') || '(none)'}`);
  const report = await worker.stopReported();
  await served?.listener.close();
  if (report.problem !== undefined) say(redact(report.problem));
  const s = worker.stats;
  const left = report.notReleased.length === 0 ? '' : `; ${report.notReleased.length === 1 ? 'partition' : 'partitions'} ${report.notReleased.join(', ')} not handed back (their sessions' states not all written: the next owner checks their unacknowledged calls again once the lease is stale)`;
  if (events.leftOut > 0) say(`${events.leftOut} partition lines left out since the last one said (more than the budget at once; /metrics counts every move)`);
  say(`stopped; ${s.calls} calls checked, ${s.verdicts} verdicts, ${s.duplicates} repeated deliveries skipped, ${s.sessionsLost} sessions whose state was not kept${left}`);
  // 1: the server went away (or did not answer) during the stop: leases not all given up, perhaps states unwritten
  return report.problem === undefined && report.notReleased.length === 0 ? 0 : 1;
}

/** `loopwatch serve [options]`: resolves to the exit code once stopped by SIGTERM or SIGINT. */
export async function serveCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const settings = serveSettings(args);
  if (settings.kind === 'nats') return natsWorker(settings.options, settings.metrics, io);
  let options = settings.options;
  let made: ServeTokenFile | undefined;
  if (settings.defaultToken) {
    try {
      made = serveTokenFile();
    } catch (e) {
      const why = e instanceof NotPrivateError ? `${e.message}` : readFailure(e);
      throw new UsageError(`cannot use the server's token file (${terminalSafe(why)}): give --token-file FILE, or --no-token to serve any local user`);
    }
    options = { ...options, token: made.token };
  }
  let server: ServeServer | undefined;
  // evictions said on stderr, counted together (at most a line a minute), the budget as it stands then
  const evictions = new EvictionNotice(
    (line) => void io.stderr.write(`loopwatch serve: ${line}\n`),
    () => `${server?.engines.size ?? 0} sessions live, ${(server?.memory.total ?? 0).toLocaleString('en-US')} of ${(server?.memory.budget ?? 0).toLocaleString('en-US')} bytes held`,
  );
  const given = options.engine?.onEvict;
  options = {
    ...options,
    engine: {
      ...options.engine,
      onEvict: (s) => {
        if (s.reason === 'evicted') evictions.evicted();
        given?.(s);
      },
    },
  };
  try {
    server = await ServeServer.start(options);
  } catch (e) {
    // a state folder of another user, or one others can write: refused rather than served without persistence
    if (e instanceof NotPrivateError) throw new UsageError(`the state folder ${e.message}: sessions are not kept in it. Give a folder of your own (--state-dir DIR), or --no-state`);
    // a file of the state folder (it could not be read, set aside, made): said as such, not as the port refused
    const at = (e as NodeJS.ErrnoException).path;
    if (typeof at === 'string' && options.stateDir !== undefined && isInFolder(at, options.stateDir)) throw new UsageError(stateFolderFailure(e, options.stateDir));
    const listen = listenFailure(e, { host: options.host ?? '127.0.0.1', port: options.port ?? DEFAULT_PORT, portFlag: '--port', hostFlag: '--host' });
    if (listen !== null) throw new UsageError(terminalSafe(listen));
    // --session-memory below one session's fixed cost under the config's windows (session-cost.ts)
    if (e instanceof OptionRangeError && e.option === 'sessionMemory') throw new UsageError(e.message);
    throw e;
  }
  const stopped = stopSignal(); // listening before saying so: a caller may signal as soon as it reads the line
  const { restored, problems, notes } = server.restoreReport;
  // notes and the listening line name the state folder (--state-dir, XDG_STATE_HOME): control characters as escapes
  for (const n of notes) io.stderr.write(`loopwatch serve: ${terminalSafe(n)}\n`);
  if (made !== undefined) io.stderr.write(`loopwatch serve: bearer token ${made.made ? 'made in' : 'read from'} ${terminalSafe(made.path)} (0600); clients send it: curl -H @${terminalSafe(made.headerPath)} ...\n`);
  if (options.token?.exposure != null) io.stderr.write(`loopwatch serve: ${terminalSafe(options.token.exposure)}\n`);
  // the hook routes' decision log takes its bound from the environment as the hook does: a value that is no size is said once here (hostile34 says it in the hook)
  const logCapProblem = options.hookLog === undefined ? null : decisionLogCapProblem(process.env);
  if (logCapProblem !== null) io.stderr.write(`loopwatch serve: ${terminalSafe(logCapProblem)}\n`);
  // a problem may quote the file's session id (the client's): redacted, control characters as escapes
  for (const p of problems) io.stderr.write(`loopwatch serve: ${terminalSafe(p.path)}: not restored: ${shownMessage(p.problem)}\n`);
  if (server.metricsUnavailable !== null) io.stderr.write(`loopwatch serve: GET /metrics answers 501: ${server.metricsUnavailable.message.replace(/^loopwatch: /, '')}\n`);
  io.stderr.write(`loopwatch serve: listening on ${server.url}${options.token === undefined ? '' : ' (bearer token required)'}; ${restored} sessions restored${options.stateDir === undefined ? '' : ` from ${terminalSafe(options.stateDir)}`}${options.stateDir === undefined && options.port === 0 && !args.includes('--no-state') ? '; --port 0 keeps no sessions across restarts (give --state-dir for that)' : ''}\n`);
  const signal = await stopped;
  io.stderr.write(`loopwatch serve: ${signal}: finishing requests in flight\n`);
  const report = await server.stop();
  evictions.flush();
  return reportStop(report, options.stateDir, io);
}
