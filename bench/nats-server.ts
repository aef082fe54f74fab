/**
 * A real nats-server for the NATS tests and benchmarks: JetStream in a temporary folder, on 127.0.0.1, a
 * free port. The binary comes from LOOPWATCH_NATS_SERVER, `.tools/nats-server/`
 * (scripts/install-nats-server.sh, run by .ci/run) or PATH; `natsServerBinary` is null when there is none.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findBinary(): string | null {
  // from bench/ or dist/bench/
  const local = [new URL('../.tools/nats-server/nats-server', import.meta.url), new URL('../../.tools/nats-server/nats-server', import.meta.url)].map((u) => fileURLToPath(u)).find((p) => existsSync(p)) ?? '';
  for (const c of [process.env.LOOPWATCH_NATS_SERVER, local, 'nats-server']) {
    if (c === undefined || c === '' || (c.includes('/') && !existsSync(c))) continue;
    const r = spawnSync(c, ['--version'], { encoding: 'utf8' });
    if (r.status === 0 && /v2\.(1\d|[2-9]\d)\./.test(r.stdout)) return c;
  }
  return null;
}

/** The nats-server binary (>= 2.10), or null. */
export const natsServerBinary = findBinary();

/** A running server. */
export interface NatsServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its folder. */
  stop(): Promise<void>;
}

/** How a server is started beyond the defaults. */
export interface NatsServerOptions {
  /**
   * The text of a configuration file (nats-server's format: `max_payload`, `authorization`, `tls`, ...),
   * written into the server's folder; the command line's address, port and JetStream folder still apply.
   * `{{dir}}` in it stands for that folder.
   */
  readonly config?: string;
  /** The TCP port. @default a free one */
  readonly port?: number;
  /** The scheme of `url` (`tls` for a server that requires TLS). @default 'nats' */
  readonly scheme?: 'nats' | 'tls';
}

/** Starts a server with JetStream in a fresh temporary folder; resolves once it accepts clients. */
export function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  if (natsServerBinary === null) throw new Error('no nats-server');
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(options.port ?? -1), '-js', '-sd', join(dir, 'js'), '--http_port', '0'];
  if (options.config !== undefined) {
    writeFileSync(join(dir, 'nats.conf'), options.config.replaceAll('{{dir}}', dir));
    args.push('-c', join(dir, 'nats.conf'));
  }
  const child = spawn(natsServerBinary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`nats-server did not start in 10 s: ${log}`));
    }, 10_000);
    child.stderr?.on('data', (b: Buffer) => {
      log += b.toString('utf8');
      const m = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log);
      if (m !== null && /Server is ready/.test(log)) {
        clearTimeout(timer);
        resolve({ url: `${options.scheme ?? 'nats'}://127.0.0.1:${m[1]}`, process: child, stop });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited: ${log}`));
    });
  });
}
