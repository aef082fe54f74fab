/**
 * What a command reads of the process it runs in: its environment, its working folder and the script it was
 * started as. The process entries pass the real ones ({@link processContext}: main.ts, and hook-main.ts
 * through hook-io.ts); a test runs `hook install|uninstall|reset|status|trust` in its own process with a
 * temporary HOME and project folder instead (test/helpers/hook-in-process.ts), so what those commands read of
 * these comes through their io only. Imports nothing: the hook's entry loads it.
 */

/** The environment, working folder and script of a command's run. */
export interface CommandContext {
  /** The environment variables: HOME, XDG_STATE_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, LOOPWATCH_STATE_DIR, PATH (where install finds the agent's CLI), the agents' own. */
  readonly env: NodeJS.ProcessEnv;
  /** The working folder: the project of `install --project` and `trust`, and what a relative path on the command line is resolved against. */
  readonly cwd: string;
  /** The script the command was started as (`process.argv[1]`): install finds the hook's entry beside it and says where it runs from. */
  readonly script: string;
}

/** The running process's own context: `process.env`, `process.cwd()` and `process.argv[1]`. */
export function processContext(): CommandContext {
  return { env: process.env, cwd: process.cwd(), script: process.argv[1] ?? '' };
}
