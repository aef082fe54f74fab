/** Runs the built `loopwatch serve` as a child process and finds its URL in what it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI } from './cli.js';

/** A running server process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** Its base URL. */
  readonly url: string;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once it exits. */
  readonly exited: Promise<number | null>;
}

/** Starts `loopwatch serve ...args` (the command at `cli`, in environment `env`) and waits (up to 20 s) for its "listening on" line. */
export function startServe(args: readonly string[], cli: string = CLI, env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`loopwatch serve did not start in 20 s: ${err}`));
    }, 20_000);
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
      const m = /listening on (http:\/\/\S+?)[;\s]/.exec(err);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, url: m[1] as string, stderr: () => err, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`loopwatch serve exited with ${code} before listening: ${err}`));
    });
  });
}
