/**
 * Where loopwatch keeps its state: {@link loopwatchStateHome}, `$XDG_STATE_HOME/loopwatch` (else
 * `~/.local/state/loopwatch`), holds the hooks' folder, the server's token and its sessions. The hooks':
 * `--state-dir`, else `$LOOPWATCH_STATE_DIR`, else `<state home>/hooks`. Small on purpose: the hook's
 * loader reads it before anything else is loaded (the compiled-code cache lives there, in `.cache/`).
 */
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * loopwatch's own folder under the user's state home: `$XDG_STATE_HOME/loopwatch`, else
 * `~/.local/state/loopwatch`. An empty or relative XDG_STATE_HOME is ignored, as the XDG Base Directory
 * specification asks ("If an implementation encounters a relative path in any of these variables it
 * should consider the path invalid and ignore it"): a relative one would put the state, and the
 * server's token, in whatever folder the command happened to start in.
 */
export function loopwatchStateHome(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homeFolder(env), '.local', 'state'), 'loopwatch');
}

/**
 * The user's home folder in `env`: its HOME when it is an absolute path, else the user's home as the system
 * records it (`os.userInfo()`; `os.homedir()` where there is no such record). For `process.env` that is what
 * `os.homedir()` alone returns (it reads HOME first); a command run with another environment (a test's,
 * through its io: src/cli/command-context.ts) gets that environment's HOME. A relative HOME is ignored as a
 * relative XDG_STATE_HOME is: the hook runs in the project's folder, so it put the state (and the code cache)
 * into the project (an agent that lets a project set its hooks' variables: start-environment.ts).
 */
export function homeFolder(env: NodeJS.ProcessEnv): string {
  const home = env.HOME;
  if (home !== undefined && isAbsolute(home)) return home;
  try {
    const recorded = userInfo().homedir;
    if (isAbsolute(recorded)) return recorded;
  } catch {
    // no record of the user (a container's uid): os.homedir() below
  }
  return homedir();
}

/**
 * The hooks' state directory for a `--state-dir` value (or none) and an environment. A relative
 * `LOOPWATCH_STATE_DIR` is ignored, as a relative XDG_STATE_HOME is: agents run hooks in the project's
 * folder, so it would put the sessions' state (their calls) in the project, and a project's `.env` (which
 * Gemini CLI loads into its hooks' environment) could set it so.
 */
export function hookStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return flag;
  const named = env.LOOPWATCH_STATE_DIR;
  if (named !== undefined && isAbsolute(named)) return named;
  return join(loopwatchStateHome(env), 'hooks');
}

/** The `--state-dir` value among a command's arguments (`--state-dir DIR` or `--state-dir=DIR`), if any. */
export function stateDirArg(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--state-dir') return args[i + 1];
    if (a.startsWith('--state-dir=')) return a.slice('--state-dir='.length);
  }
  return undefined;
}
