/**
 * One `loopwatch hook` call run in the test's own process: the CLI's hook command (`hookCommand`: its
 * flags, the state folder, the session's lock and state file, the reply) with the payload as its standard
 * input, and what it printed and its exit code, as `hook()` (helpers/hook-payloads.ts) returns them from a
 * child process. A hook process costs ~0.1 CPU-s (node alone 0.06) and this ~3 ms: a test driving sessions
 * through many calls makes most of them here and keeps some through `hook()`, so the process entry (the
 * bundled command, its code cache, stdin, the exit code) still answers, reading and writing the same state
 * files. The state is in those files only (a hook keeps nothing between calls), so a call here sees what a
 * process would. What a hook call reads of its environment (the default state folder: LOOPWATCH_STATE_DIR,
 * XDG_STATE_HOME, HOME; LOOPWATCH_DECISION_LOG; the accepted allowlists' markers) comes through its io
 * (citime18), so `place.env` stands for a hook process's environment.
 *
 * `hook install|uninstall|reset|status|trust` run here too ({@link hookVerbInProcess}): what they read of the
 * process (its environment, folder and script: src/cli/command-context.ts) comes through their io, so a test
 * gives them a temporary HOME and project folder as `loopwatchAsync(args, '', env, cwd)` gave a child. A
 * `loopwatch hook install` process cost ~0.13 CPU-s (citime17: 101 fewer, ~13 CPU-s less). What stays a process's: the installed command run by
 * a shell, a global install's layout reached through a link (the script's real path), a file size limit
 * (`ulimit -f`), a terminal on standard input and the agents among the process's ancestors (`hook trust`).
 */
import type { CommandContext } from '../../src/cli/command-context.js';
import { CLI, type CliRun } from './cli.js';

/** `loopwatch hook ...args` in this process, `payload` (JSON, text as given, or a Buffer's bytes as they are) on its standard input. */
export async function hookInProcess(args: readonly string[], payload: unknown, place: Partial<CommandContext> & { inputIsTTY?: boolean } = {}): Promise<CliRun> {
  const { hookCommand } = await import('../../src/cli/hook-command.js');
  const input = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  let stdout = '';
  let stderr = '';
  const code = await hookCommand(args, {
    env: place.env ?? process.env,
    cwd: place.cwd ?? process.cwd(),
    // the built command's, as a `loopwatch` process started from the checkout has it (install writes dist/hook/hook-main.cjs)
    script: place.script ?? CLI,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readInput: async (max) => (input.length > max ? null : input),
    inputIsTTY: place.inputIsTTY ?? false,
  });
  return { code, stdout, stderr };
}

/**
 * `loopwatch hook VERB ...` (install, uninstall, reset, status, trust) in this process, with `env` as its
 * environment and `cwd` as its folder (defaults: this process's), and nothing on standard input: what
 * `loopwatchAsync(['hook', ...args], '', env, cwd)` ran as a child process.
 */
export function hookVerbInProcess(args: readonly string[], env?: NodeJS.ProcessEnv, cwd?: string, inputIsTTY = false): Promise<CliRun> {
  return hookInProcess(args, '', { ...(env === undefined ? {} : { env }), ...(cwd === undefined ? {} : { cwd }), inputIsTTY });
}

/**
 * Loads the modules of `loopwatch hook` and its verbs (a `beforeAll` of a file that runs them here, 180 s):
 * loaded (and, from src/, transformed) inside a test, they count against its timeout, which a loaded machine
 * ran past (hook-install's first case took 43 and 60 s at load ~20, against 3 s once loaded). A process
 * loads its bundle outside the test's clock as well: spawnSync blocks the timer.
 */
export async function loadHookVerbs(): Promise<void> {
  await Promise.all([
    import('../../src/cli/hook-command.js'),
    import('../../src/cli/hook-install-command.js'),
    import('../../src/cli/hook-reset-command.js'),
    import('../../src/cli/hook-status-command.js'),
    import('../../src/cli/hook-trust-command.js'),
  ]);
}
