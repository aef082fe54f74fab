/**
 * One `loopwatch hook` call run in the test's own process: the CLI's hook command (`hookCommand`: its
 * flags, the state folder, the session's lock and state file, the reply) with the payload as its standard
 * input, and what it printed and its exit code, as `hook()` (helpers/hook-payloads.ts) returns them from a
 * child process. A hook process costs ~0.1 CPU-s (node alone 0.06) and this ~3 ms: a test driving sessions
 * through many calls makes most of them here and keeps some through `hook()`, so the process entry (the
 * bundled command, its code cache, stdin, the exit code) still answers, reading and writing the same state
 * files. The state is in those files only (a hook keeps nothing between calls), so a call here sees what a
 * process would.
 */
import type { CliRun } from './cli.js';

/** `loopwatch hook ...args` in this process, `payload` (JSON, text as given, or a Buffer's bytes as they are) on its standard input. */
export async function hookInProcess(args: readonly string[], payload: unknown): Promise<CliRun> {
  const { hookCommand } = await import('../../src/cli/hook-command.js');
  const input = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  let stdout = '';
  let stderr = '';
  const code = await hookCommand(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readInput: async (max) => (input.length > max ? null : input),
    inputIsTTY: false,
  });
  return { code, stdout, stderr };
}
