/**
 * `loopwatch serve` as a benchmark's child process. Since s19 serve requires a bearer token by default
 * (made in the user's state folder), so a benchmark gives it one of its own in a temporary folder
 * (`--token-file`, which every build with a token understands, so `--cli` can run an older build) and sends
 * it on every request; the user's state folder is never touched. The URL is read from serve's "listening
 * on URL (bearer token required); ..." line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running `loopwatch serve` child. */
export interface ServeChild {
  /** The server's base URL (`http://127.0.0.1:PORT`). */
  readonly url: string;
  /** The child process. */
  readonly child: ChildProcess;
  /** The `Authorization` header value every request but /healthz must carry. */
  readonly authorization: string;
  /** Kills the child (SIGKILL unless another signal is given) and removes the token's folder. */
  readonly stop: (signal?: NodeJS.Signals) => void;
}

/** The URL in serve's start line, or undefined while it has not been written. */
export function listeningUrl(stderr: string): string | undefined {
  return /listening on (http:\/\/\S+?)[;\s]/.exec(stderr)?.[1];
}

/**
 * Starts `node [nodeArgs] cli serve --port 0 --no-state --token-file <temp> [flags]` and resolves once it
 * listens; rejects with its stderr if it exits first.
 */
export function startServeChild(cli: string, flags: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<ServeChild> {
  const dir = mkdtempSync(join(tmpdir(), 'loopwatch-bench-serve-'));
  const token = randomBytes(32).toString('hex');
  const tokenFile = join(dir, 'serve.token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--port', '0', '--no-state', '--token-file', tokenFile, ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  const stop = (signal: NodeJS.Signals = 'SIGKILL'): void => {
    child.kill(signal);
    rmSync(dir, { recursive: true, force: true });
  };
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
      const url = listeningUrl(err);
      if (url !== undefined) resolve({ url, child, authorization: `Bearer ${token}`, stop });
    });
    child.once('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`serve exited: ${err}`));
    });
  });
}
