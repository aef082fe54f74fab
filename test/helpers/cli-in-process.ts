/**
 * A `loopwatch` command run in the test's own process: the CLI's `main(argv, io)` (src/cli/main.ts, the
 * function the bundled command calls with the process's streams) with streams that collect what it writes,
 * `input` as its standard input, and its exit code, as `loopwatch()` (helpers/cli.ts) returns them from a
 * child process. A `loopwatch scan` process cost ~0.57 CPU-s in a CI run (node's own start ~0.1 of it, the
 * bundle's load most of the rest); here the modules load once per test file. What stays a process's: the
 * bundle, the process's own streams (pipes, a reader closing early), signals, the exit code as the process
 * sets it, `uncaughtException`, memory of the process: a test of those keeps `loopwatch()`. One difference
 * in text: run from src/, `main` finds no built bench suite beside it, so `bench` is missing from the
 * command lists of the main help and of an unknown command's error (the bundle in a checkout has it).
 */
import { Readable, Writable } from 'node:stream';
import { CLI, type CliRun } from './cli.js';

/** A stream that keeps every chunk written to it, as UTF-8 text. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `loopwatch ...args` in this process (with `input` on stdin, if given). */
export async function loopwatchInProcess(args: readonly string[], input?: string): Promise<CliRun> {
  const { main } = await import('../../src/cli/main.js');
  const stdout = collector();
  const stderr = collector();
  const stdin = Readable.from(input === undefined || input === '' ? [] : [Buffer.from(input, 'utf8')], { objectMode: false });
  // this process's environment and folder; the script the built command's, as a process of it would have
  const code = await main(args, { env: process.env, cwd: process.cwd(), script: CLI, stdout: stdout.stream, stderr: stderr.stream, stdin });
  // let writes queued on the collectors land before reading them
  await new Promise((r) => setImmediate(r));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
