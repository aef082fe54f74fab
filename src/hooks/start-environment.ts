/**
 * The variables Node acts on as it starts, before a line of loopwatch runs, and which the hook command
 * `hook install` writes keeps out of Node's environment (`/usr/bin/env -u NAME ... <node> <hook>`).
 *
 * An agent's hooks inherit the agent's environment, and a project can add to it: Claude Code applies the
 * `env` of a project's `.claude/settings.json` to its hooks (probed with 2.1.328: NODE_OPTIONS, OPENSSL_CONF,
 * PATH, BASH_ENV, LD_PRELOAD reach a hook; HOME, TMPDIR and XDG_* do not), Gemini CLI loads a trusted
 * folder's `.env` (any variable not already set). The hook runs in the project's folder, so a relative path
 * in one of these names a file of the project, and so does a module named to the user's own
 * `NODE_OPTIONS=--require x` (resolved from the folder Node starts in).
 *
 * What cannot be kept out from here: whatever acts on the shell the agent runs the line with, or on the
 * programs it starts (`LD_PRELOAD`, Gemini's `bash -c` reading `BASH_ENV`), and `PATH` for an agent that
 * looks its shell up. On Windows the line is written without `env` (cmd and PowerShell have none).
 */
import { existsSync } from 'node:fs';
import { MAX_COMMAND_CHARS } from './install-targets.js';

/** One variable the installed command clears, and what it does to a Node process that starts with it. */
export interface StartVariable {
  readonly name: string;
  readonly why: string;
}

/** The variables cleared, each with why; the order the command line lists them in. */
export const START_VARIABLES: readonly StartVariable[] = [
  { name: 'NODE_OPTIONS', why: '--require/--import run a module (found from the project\'s folder) in the hook; --inspect opens a debugger' },
  { name: 'OPENSSL_CONF', why: 'read as Node starts: a provider module it names is loaded, native code' },
  { name: 'NODE_EXTRA_CA_CERTS', why: 'read as Node starts: a FIFO holds the start until the agent gives up, /dev/stdin takes the payload' },
  { name: 'NODE_REDIRECT_WARNINGS', why: 'Node appends its warnings to the file it names' },
  { name: 'NODE_V8_COVERAGE', why: 'Node writes a coverage file into the folder it names (the project\'s, when relative) at exit' },
  { name: 'NODE_COMPILE_CACHE', why: 'Node 22 and later read compiled code from the folder it names' },
];

/**
 * `env` as the line `hook install` writes leaves it to the hook's Node: without the {@link START_VARIABLES}
 * (a copy). What a harness that starts the hook itself (the hook bench, the replay of the sets, the test
 * setup) gives it, so a variable of the machine (a CI's NODE_EXTRA_CA_CERTS) neither costs its parse on every
 * start nor draws the hook's notice on each session's first call.
 */
export function installedLineEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const left = { ...env };
  for (const v of START_VARIABLES) delete left[v.name];
  return left;
}

/** Where `env` is looked for (an absolute path: the agent's PATH may be the project's). */
const ENV_PATHS = ['/usr/bin/env', '/bin/env'];

/**
 * The words the hook command begins with: `/usr/bin/env -u NODE_OPTIONS ...` (every {@link START_VARIABLES}
 * name), or none on Windows or where no `env` is found (`exists` checks a path).
 */
export function startPrefix(platform: NodeJS.Platform = process.platform, exists: (path: string) => boolean = existsSync): string[] {
  if (platform === 'win32') return [];
  const env = ENV_PATHS.find(exists);
  return env === undefined ? [] : [env, ...START_VARIABLES.flatMap((v) => ['-u', v.name])];
}

/** A hook command's words, read past a leading `env` and its `-u NAME` words. */
interface EnvPrefix {
  readonly words: readonly string[];
  /** The leading `env` word (with or without a path), or null when the command does not begin with one. */
  readonly env: string | null;
  /** The names its `-u NAME` words clear. */
  readonly cleared: ReadonlySet<string>;
  /** Where the words after `env -u ...` begin (0 without `env`). */
  readonly after: number;
}

/** Splits `command` into words and reads its leading `env -u NAME ...`, if any. */
function envPrefix(command: string): EnvPrefix {
  const words = command.slice(0, MAX_COMMAND_CHARS).trim().split(/\s+/);
  const cleared = new Set<string>();
  if (!/^(?:\S*\/)?env$/.test(words[0] ?? '')) return { words, env: null, cleared, after: 0 };
  let i = 1;
  for (; words[i] === '-u'; i += 2) if (words[i + 1] !== undefined) cleared.add(words[i + 1] as string);
  return { words, env: words[0] as string, cleared, after: i };
}

/**
 * The {@link START_VARIABLES} names an installed hook command leaves to Node: all of them for a command
 * that does not begin with `env` (a line written before install cleared them, or by hand), else those its
 * `-u NAME` words do not clear.
 */
export function leftToNode(command: string): string[] {
  const { cleared } = envPrefix(command);
  return START_VARIABLES.map((v) => v.name).filter((n) => !cleared.has(n));
}

/**
 * The program an installed hook command starts, when it is named without a path (`loopwatch`, `npx`, `node`:
 * looked up on the agent's PATH, which a project can set), else null; the program after an `env -u ...`.
 */
export function programLookedUp(command: string): string | null {
  const { words, env, after } = envPrefix(command);
  if (env !== null && !env.includes('/')) return env;
  const program = (words[after] ?? '').replace(/^['"]|['"]$/g, '');
  return program === '' || program.includes('/') || /^[A-Za-z]:\\/.test(program) ? null : program;
}
