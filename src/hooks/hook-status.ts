/**
 * What `loopwatch hook status` shows, as data: per session of a state folder, the calls its hooks saw and
 * checked (the `.calls` count), what they decided and why (the state file's notes), and when the state
 * was last written. Read-only: it takes no lock and changes nothing; a folder or file that is not private
 * to the user is reported, not read (as the hooks themselves treat it).
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NotPrivateError } from '../errors.js';
import { AGENT_NAMES } from './hook-agent.js';
import { notPrivate, readPrivateFile } from './private-path.js';
import { type CallCounts, SessionFile, readCallCounts, storedId } from './session-file.js';
import type { SessionMeta } from './session-meta.js';
import { CALLS_SUFFIX, STATE_SUFFIX, stateFileKind } from './state-names.js';

/** One session's status. Plain data. */
export interface SessionStatus {
  /** The hash that names the session's files. */
  readonly key: string;
  /** The agent, when the state file names it. */
  readonly agent: string | null;
  /** The session id, when the state file names it (a session whose calls were never checked has none). */
  readonly session: string | null;
  /** Milliseconds since the state file was last written; null without one. */
  readonly stateAgeMs: number | null;
  /** What the hooks did (null without a `.calls` file: a session from before it was kept). */
  readonly calls: CallCounts | null;
  /** Proposals not checked: allowed unchecked (denied with --fail-closed), or in flight. */
  readonly unchecked: number;
  /** Outcomes not recorded (dropped, or in flight). */
  readonly dropped: number;
  /** The state's notes (null when there is no state file, or one written by an older loopwatch). */
  readonly notes: SessionMeta | null;
  /** Why the session's files could not be read, when they could not. */
  readonly problem: string | null;
}

/** The status of a state folder. */
export interface HookStatus {
  readonly stateDir: string;
  /** Why the folder was not read, when it was not (missing, not private). */
  readonly problem: string | null;
  /** Sessions, the most recently written first. */
  readonly sessions: readonly SessionStatus[];
  /** State files set aside (`.bad`) that are still kept. */
  readonly setAside: number;
}

function readSession(dir: string, key: string, now: number): SessionStatus {
  const statePath = join(dir, key + STATE_SUFFIX);
  let agent: string | null = null;
  let session: string | null = null;
  let stateAgeMs: number | null = null;
  let notes: SessionMeta | null = null;
  let problem: string | null = null;
  try {
    const bytes = readPrivateFile(statePath);
    if (bytes !== null) {
      stateAgeMs = Math.max(0, Math.round(now - lstatSync(statePath).mtimeMs));
      const id = storedId(bytes);
      const nl = id?.indexOf('\n') ?? -1;
      if (id === null || nl < 0) throw new Error('not a loopwatch hook state file');
      [agent, session] = [id.slice(0, nl), id.slice(nl + 1)];
      const file = new SessionFile(dir, agent, session);
      if (file.path !== statePath) throw new Error('the state file belongs to another session');
      notes = file.load()?.meta ?? null;
    }
  } catch (e) {
    problem = `its state file is not read: ${e instanceof NotPrivateError ? e.reason : (e as Error).message}`;
  }
  let calls: CallCounts | null = null;
  const callsPath = join(dir, key + CALLS_SUFFIX);
  try {
    if (existsSync(callsPath)) calls = readCallCounts(callsPath);
  } catch (e) {
    problem ??= `its count of calls is not read: ${e instanceof NotPrivateError ? e.reason : (e as Error).message}`;
  }
  const unchecked = calls === null ? 0 : Math.max(0, calls.proposals - calls.checked);
  const dropped = calls === null ? 0 : Math.max(0, calls.records - calls.recorded);
  return { key, agent, session, stateAgeMs, calls, unchecked, dropped, notes, problem };
}

/** The hash keys of the sessions `session` can be (one per agent). */
function keysOf(dir: string, session: string): Set<string> {
  return new Set(AGENT_NAMES.map((a) => new SessionFile(dir, a, session).path.slice(dir.length + 1, -STATE_SUFFIX.length)));
}

/**
 * The status of the state folder `dir`: every session, or those of `session` (its id, and its subagents'
 * `ID#agent` sessions). Never throws for what the folder holds.
 */
export function hookStatus(dir: string, session?: string, now = Date.now()): HookStatus {
  const none = (problem: string): HookStatus => ({ stateDir: dir, problem, sessions: [], setAside: 0 });
  let names: string[];
  try {
    const why = notPrivate(statSync(dir));
    if (why !== null) return none(`the state folder is not read: ${why}`);
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return none(code === 'ENOENT' ? 'there is no state folder (no hook has run with it)' : `the state folder cannot be read (${code ?? (e as Error).message})`);
  }
  const keys = new Set<string>();
  let setAside = 0;
  for (const name of names) {
    const kind = stateFileKind(name);
    if (kind === 'state' || kind === 'calls') keys.add(name.slice(0, 32));
    else if (kind === 'bad') setAside++;
  }
  const wanted = session === undefined ? null : keysOf(dir, session);
  const sessions: SessionStatus[] = [];
  for (const key of keys) {
    const s = readSession(dir, key, now);
    if (wanted === null || wanted.has(key) || (session !== undefined && s.session !== null && s.session.startsWith(`${session}#`))) sessions.push(s);
  }
  sessions.sort((a, b) => (a.stateAgeMs ?? Number.MAX_VALUE) - (b.stateAgeMs ?? Number.MAX_VALUE) || a.key.localeCompare(b.key));
  return { stateDir: dir, problem: null, sessions, setAside };
}
