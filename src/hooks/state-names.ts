/**
 * The names loopwatch gives the files of a hooks' state folder. The folder may be any folder (`--state-dir
 * .` in a project): what the hooks remove or count as theirs is only what matches these names exactly.
 *
 * ```
 *   <hash>.lwhook                          a session's state               session-file.ts
 *   .<hash>.lwhook.<pid>.tmp               a state being written           session-file.ts (replace-whole.ts;
 *   .<hash>.lwhook.<pid>.<8 hex>.tmp         the same when that name is held;  older versions: <hash>.lwhook.<pid>.<8 hex>.tmp)
 *   <hash>.lock                            the session's lock              state-lock.ts
 *   <hash>.lock.<pid>.<8 hex>.broken       a stale lock being broken       state-lock.ts
 *   <hash>.bad                             a state set aside               session-file.ts
 *   <hash>.calls                           the session's count of calls    session-file.ts
 *   .sweep                                 the sweep's marker              state-sweep.ts
 *   .cache                                 older versions' code cache (no longer written there)
 *   .noted                                 markers of notices told once (told-once.ts: the project allowlist's, unchecked calls, a bad log size)
 *   <hash>: 32 lower-case hex digits (a hash of the agent and session id)
 * ```
 */

/** What a file of the state folder is, by its name. */
export type StateFileKind = 'state' | 'bad' | 'calls' | 'leftover';

const HASH = '[0-9a-f]{32}';
const SESSION_FILE = new RegExp(`^${HASH}\\.(lwhook|bad|calls)$`);
const LEFTOVER = new RegExp(`^(?:${HASH}\\.(?:lock|lwhook\\.\\d{1,10}\\.[0-9a-f]{8}\\.tmp|lock\\.\\d{1,10}\\.[0-9a-f]{8}\\.broken)|\\.${HASH}\\.lwhook\\.\\d{1,10}(?:\\.[0-9a-f]{8})?\\.tmp)$`);
const KINDS: Readonly<Record<string, StateFileKind>> = { lwhook: 'state', bad: 'bad', calls: 'calls' };

/** Suffix of a session's state file. */
export const STATE_SUFFIX = '.lwhook';
/** Suffix of a session's count of calls. */
export const CALLS_SUFFIX = '.calls';
/** The sweep's marker file. */
export const SWEEP_MARKER = '.sweep';

/** The kind of the state folder's file `name`, or null when the name is not one loopwatch gives. */
export function stateFileKind(name: string): StateFileKind | null {
  const m = SESSION_FILE.exec(name);
  if (m !== null) return KINDS[m[1] as string] ?? null;
  return LEFTOVER.test(name) ? 'leftover' : null;
}

/** Whether `name` is one of loopwatch's in a state folder (its files, the sweep's marker, its folders). */
export function isLoopwatchName(name: string): boolean {
  return name === SWEEP_MARKER || name === '.cache' || name === '.noted' || stateFileKind(name) !== null;
}
