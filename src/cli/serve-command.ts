/**
 * `loopwatch serve`: loop detection as an HTTP service (routes in src/serve/http-routes.ts). Runs until
 * SIGTERM or SIGINT, then stops accepting, finishes what is in flight, writes every live session to the
 * state directory (restored at the next start) and exits 0; 1 when a session could not be written (each is
 * named on stderr).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BearerToken, isLoopback } from '../serve/bearer-token.js';
import { DEFAULT_PORT, type ServeOptions } from '../serve/serve-options.js';
import { ServeServer, type StopReport } from '../serve/serve-server.js';
import { detectionOptions } from './detection-options.js';
import { type FlagSpec, integerFlag, parseFlags, stringOf } from './flags.js';
import type { CommandIo } from './scan-command.js';
import { UsageError } from './usage-error.js';

const SERVE_FLAGS: FlagSpec = {
  host: { type: 'string' },
  port: { type: 'string' },
  'token-file': { type: 'string' },
  'state-dir': { type: 'string' },
  'no-state': { type: 'boolean' },
  'body-limit': { type: 'string' },
  'max-in-flight': { type: 'string' },
  'max-sessions': { type: 'string' },
  preset: { type: 'string' },
  config: { type: 'string' },
};

/** The default state directory for a port: `$XDG_STATE_HOME/loopwatch/serve-<port>` (or `~/.local/state/...`). */
export function defaultStateDir(port: number): string {
  const base = process.env.XDG_STATE_HOME !== undefined && process.env.XDG_STATE_HOME !== '' ? process.env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'loopwatch', `serve-${port}`);
}

/** Parses `loopwatch serve` flags into server options. Throws UsageError naming the flag. */
export function serveOptions(args: readonly string[]): ServeOptions {
  const { values: v } = parseFlags(args, SERVE_FLAGS, false);
  const host = stringOf(v, 'host') ?? '127.0.0.1';
  const port = integerFlag('--port', stringOf(v, 'port'), DEFAULT_PORT, 0, 65_535);
  const tokenFile = stringOf(v, 'token-file');
  let token: BearerToken | undefined;
  if (tokenFile !== undefined) {
    try {
      token = BearerToken.fromFile(tokenFile);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  if (token === undefined && !isLoopback(host)) throw new UsageError(`--host ${host} is not a loopback address: give --token-file so that only callers with the token are served`);
  if (v['no-state'] === true && stringOf(v, 'state-dir') !== undefined) throw new UsageError('--no-state and --state-dir cannot be used together');
  const stateDir = v['no-state'] === true ? undefined : (stringOf(v, 'state-dir') ?? defaultStateDir(port));
  return {
    host,
    port,
    token,
    stateDir,
    bodyLimit: integerFlag('--body-limit', stringOf(v, 'body-limit'), 4 << 20, 1024, 1 << 30),
    maxInFlight: integerFlag('--max-in-flight', stringOf(v, 'max-in-flight'), 256, 1, 1_000_000),
    engine: { ...detectionOptions(stringOf(v, 'preset'), stringOf(v, 'config')), maxSessions: integerFlag('--max-sessions', stringOf(v, 'max-sessions'), 100_000, 1, 10_000_000) },
  };
}

/** Says what a stop wrote; the exit code (1 when a session could not be written). */
function reportStop(r: StopReport, dir: string | undefined, io: CommandIo): number {
  for (const f of r.failed) io.stderr.write(`loopwatch serve: session ${JSON.stringify(f.sessionId)} could not be written: ${f.problem}\n`);
  const where = dir === undefined ? 'not kept (--no-state)' : `written to ${dir}`;
  io.stderr.write(`loopwatch serve: stopped; ${r.persisted} sessions ${where}${r.cut > 0 ? `; ${r.cut} requests were cut at the drain limit` : ''}\n`);
  return r.failed.length === 0 ? 0 : 1;
}

/** `loopwatch serve [options]`: resolves to the exit code once stopped by SIGTERM or SIGINT. */
export async function serveCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const options = serveOptions(args);
  let server: ServeServer;
  try {
    server = await ServeServer.start(options);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${options.host}:${options.port} (${code})`);
    throw e;
  }
  const { restored, problems } = server.restoreReport;
  for (const p of problems) io.stderr.write(`loopwatch serve: ${p.path}: not restored: ${p.problem}\n`);
  io.stderr.write(`loopwatch serve: listening on ${server.url}${options.token === undefined ? '' : ' (bearer token required)'}; ${restored} sessions restored${options.stateDir === undefined ? '' : ` from ${options.stateDir}`}\n`);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  io.stderr.write(`loopwatch serve: ${signal}: finishing requests in flight\n`);
  return reportStop(await server.stop(), options.stateDir, io);
}
