/**
 * Telling the person, once, that a variable which runs code before any hook command starts points into the
 * project: `LD_PRELOAD` (the dynamic loader loads what it names into every program, the agent's shell and the
 * hook's Node first; `DYLD_INSERT_LIBRARIES` on macOS) and `BASH_ENV` (read by every non-interactive bash,
 * Gemini CLI's `bash -c` around each hook). A project can set them: Claude Code applies the `env` of a
 * project's `.claude/settings.json` to its hooks, Gemini CLI loads a trusted folder's `.env` (probed, s30:
 * docs/reliability.md, hostile37). Unlike Node's start variables (start-environment.ts), no command line can
 * keep them out: `env -u` runs after the shell, and is itself preloaded. The hook can only say so.
 *
 * Said only where the value points into the project (a path relative to the folder the hook runs in, or one
 * under the session's `cwd`, `CLAUDE_PROJECT_DIR` or `GEMINI_PROJECT_DIR`, or a `BASH_ENV` with `$` or a
 * backquote: bash expands it, a command substitution runs), never for a user's own preload (jemalloc,
 * faketime under /usr, a library named without a slash: found on the loader's path): a hook that nags on
 * normal setups gets uninstalled. A folder that is the user's home or holds it is no project here (the
 * user's own files are there). Only the names are told, never the values. A library preloaded on purpose
 * can take itself out of the environment before the hook reads it: this tells the careless project, not a
 * hostile one (the fix is where the agent takes the variable from).
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { homeFolder } from './state-dir.js';
import { toldBefore } from './told-once.js';
import type { NoticeSession } from './unchecked-notice.js';

/** A variable that runs code before any hook command, and how its value lists paths. */
interface PreloadVariable {
  readonly name: string;
  /** The separators of its list of paths, or null for a single path. */
  readonly separators: string | null;
}

/** The variables told of, in the order they are named. */
export const PRELOAD_VARIABLES: readonly PreloadVariable[] = [
  { name: 'LD_PRELOAD', separators: ' :' },
  { name: 'DYLD_INSERT_LIBRARIES', separators: ':' },
  { name: 'BASH_ENV', separators: null },
];

/** Longest value read (4 KiB): a longer one is told as pointing into the project (no loader path is that long). */
const MAX_VALUE_CHARS = 4096;

/** `path` and, when it exists, its real path (the project's folder through a link, a link in it to elsewhere). */
function spellings(path: string): string[] {
  try {
    const real = realpathSync(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

/** Whether `path` is `folder` or lies inside it. */
function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

/** Whether the absolute `path` lies in one of the `projects`, read as given and through links (its folder's, when it does not exist). */
function inProject(path: string, projects: readonly string[]): boolean {
  const forms = [...spellings(path), ...spellings(dirname(path)).map((d) => join(d, basename(path)))];
  return forms.some((p) => projects.some((f) => inside(p, f)));
}

/** Whether one path of a variable's value points into the project. */
function pointsIn(v: PreloadVariable, path: string, projects: readonly string[]): boolean {
  if (v.separators === null && /[$`]/.test(path)) return true; // bash expands BASH_ENV: $(...) runs, $PWD is the project
  if (!path.includes('/')) return v.separators === null; // a library name is looked up on the loader's path; BASH_ENV is a file of the folder
  return !isAbsolute(path) || inProject(path, projects);
}

/**
 * The folders that are the project's: the folder the hook runs in, the session's `cwd` and the agents'
 * project variables, each as given and through links; none that is the user's home or holds it.
 */
export function projectFolders(env: NodeJS.ProcessEnv, cwd: unknown, here: string = process.cwd()): string[] {
  const home = homeFolder(env);
  const given = [here, cwd, env.CLAUDE_PROJECT_DIR, env.GEMINI_PROJECT_DIR].filter((f): f is string => typeof f === 'string' && isAbsolute(f));
  const homes = spellings(home);
  return [...new Set(given.flatMap(spellings))].filter((f) => !homes.some((h) => inside(h, f)));
}

/** The {@link PRELOAD_VARIABLES} names whose value in `env` points into one of `projects` (in their order). */
export function projectPreloads(env: NodeJS.ProcessEnv, projects: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of PRELOAD_VARIABLES) {
    const value = env[v.name];
    if (value === undefined || value === '') continue;
    if (value.length > MAX_VALUE_CHARS) {
      out.push(v.name);
      continue;
    }
    const paths = v.separators === null ? [value] : value.split(v.separators === ':' ? ':' : /[ :]/).filter((p) => p !== '');
    if (paths.some((p) => pointsIn(v, p, projects))) out.push(v.name);
  }
  return out;
}

/** What to say about `names` (the variables pointing into the project). */
export function projectPreloadText(names: readonly string[]): string {
  const it = names.length === 1 ? 'it' : 'them';
  return `${names.join(', ')} ${names.length === 1 ? 'names a file' : 'name files'} of the project, run before every hook command (loopwatch's too) and no hook line can keep ${it} out; a project's settings ("env" of .claude/settings.json) or .env can set ${it}: remove ${it} there, or keep ${it} out of Gemini CLI's hooks with advanced.excludedEnvVars in ~/.gemini/settings.json (docs/hooks.md)`;
}

/**
 * What to say on a call of `session` whose hook process has `env` and the payload's `cwd`
 * ({@link projectPreloadText}): undefined when no variable points into the project, on Windows, or when it
 * was told already for the session and these names. Never throws.
 */
export function projectPreloadNotice(stateDir: string, session: NoticeSession, env: NodeJS.ProcessEnv, cwd: unknown, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  try {
    if (!PRELOAD_VARIABLES.some((v) => (env[v.name] ?? '') !== '')) return undefined; // the common case: three reads
    const names = projectPreloads(env, projectFolders(env, cwd));
    if (names.length === 0) return undefined;
    return toldBefore(stateDir, `project preload\n${names.join(' ')}\n${session.agent}\n${session.session}`) ? undefined : projectPreloadText(names);
  } catch {
    return undefined;
  }
}
