/**
 * Telling the person, once, that the hook's Node was started with a variable it acts on as it starts
 * (start-environment.ts: `NODE_OPTIONS`, `OPENSSL_CONF`, ...). The line `hook install` writes clears them
 * (`/usr/bin/env -u ...`), so a hook that sees one was started by a line written before that (or by hand),
 * or on Windows, where the line has no `env`: whatever the variable did (a module of the project's run by
 * `--require`) was done before this code ran, and this notice is how the person learns the line lets it.
 *
 * Only the variable's name is told, never its value (it may hold a secret or a project's path). Said in the
 * reply's `systemMessage` (where unchecked-notice.ts says an unchecked call) and once on stderr, once per
 * session and set of names (a marker, told-once.ts); on Windows, where running install again changes
 * nothing, once per agent and set of names until the sweep removes the marker (state-sweep.ts), not every
 * session. Nothing on a call that sees none of them: the cost there is reading six names of the environment.
 */
import { START_VARIABLES } from './start-environment.js';
import { toldBefore } from './told-once.js';
import type { NoticeSession } from './unchecked-notice.js';

/** The {@link START_VARIABLES} names set, not empty, in `env` (in their list's order). */
export function startVariablesSet(env: NodeJS.ProcessEnv): string[] {
  const set: string[] = [];
  for (const v of START_VARIABLES) {
    const value = env[v.name];
    if (value !== undefined && value !== '') set.push(v.name);
  }
  return set;
}

/** What to say about `names` (the variables seen), with the fix for `platform`. */
export function startEnvironmentText(names: readonly string[], platform: NodeJS.Platform = process.platform): string {
  const it = names.length === 1 ? 'it' : 'them';
  const seen = `the hook's Node was started with ${names.join(', ')} set (acted on before loopwatch runs; a project's settings or .env can set ${it})`;
  if (platform === 'win32') return `${seen}; on Windows the hook's line cannot clear ${it}: unset ${it} where the agent starts, and keep ${it} out of projects' settings`;
  return `${seen}; run loopwatch hook install again: its line starts Node without ${it}`;
}

/**
 * What to say on a call of `session` whose hook process has `env` ({@link startEnvironmentText}):
 * undefined when none of the variables is set, or it was told already (see the header). Never throws.
 */
export function startEnvironmentNotice(stateDir: string, session: NoticeSession, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const names = startVariablesSet(env);
  if (names.length === 0) return undefined;
  const who = platform === 'win32' ? session.agent : `${session.agent}\n${session.session}`;
  return toldBefore(stateDir, `start environment\n${names.join(' ')}\n${who}`) ? undefined : startEnvironmentText(names, platform);
}
