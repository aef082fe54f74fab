/**
 * Where the hooks keep their state: `--state-dir`, else `$LOOPWATCH_STATE_DIR`, else
 * `$XDG_STATE_HOME/loopwatch/hooks`, else `~/.local/state/loopwatch/hooks`. Small on purpose: the hook's
 * loader reads it before anything else is loaded (the compiled-code cache lives there, in `.cache/`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The hooks' state directory for a `--state-dir` value (or none) and an environment. */
export function hookStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return flag;
  if (env.LOOPWATCH_STATE_DIR !== undefined && env.LOOPWATCH_STATE_DIR !== '') return env.LOOPWATCH_STATE_DIR;
  return join(loopwatchStateHome(env), 'hooks');
}

/** loopwatch's folder of the user's state: `$XDG_STATE_HOME/loopwatch`, else `~/.local/state/loopwatch`. */
export function loopwatchStateHome(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'loopwatch');
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
