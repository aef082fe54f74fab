/**
 * The accepted allowlists as the user reads and withdraws them: `loopwatch hook status` lists each marker of
 * accepted-allowlists.ts (the file, when it was accepted, and whether the file is still the text accepted,
 * changed since, or gone), and `loopwatch hook trust --revoke FILE` removes every marker of one file, each
 * version of it, so its rules are no longer used.
 *
 * A marker's content is what the user's own `hook trust` wrote, but anything of the user's rights (an agent)
 * may have written one: it is read as untrusted text (a regular file of the user's, reached without a
 * symbolic link, at most MAX_MARKER_BYTES), and shown only through the terminal-safe printers. A marker
 * whose content cannot be read (one written before s21 is empty) is listed without its file.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { acceptedFolder, acceptedKey, folderProblem, markerKey, textHash } from './accepted-allowlists.js';
import { O_NOFOLLOW, userId } from './private-path.js';

/** Largest marker read, in bytes (a path of 4,096 characters and the rest fit). */
const MAX_MARKER_BYTES = 16 * 1024;
/** Markers listed at most (the folder is the user's; a flood of them is cut, and says so). */
export const MAX_MARKERS = 1000;
/** A marker's name: 32 hex digits. */
const MARKER_NAME = /^[0-9a-f]{32}$/;

/** Where an accepted file stands now. */
export type AcceptedState = 'in use' | 'changed since' | 'gone' | 'unknown';

/** One accepted allowlist: its marker, and what its content says (when it says it). */
export interface AcceptedEntry {
  /** The marker's name. */
  readonly key: string;
  /** The allowlist's path, as the marker records it; null for a marker that records none. */
  readonly path: string | null;
  /** When it was accepted (ISO 8601, as recorded; else the marker's modification time). */
  readonly time: string;
  /** Whether the file at `path` still holds the text accepted. */
  readonly state: AcceptedState;
}

/** The markers found, and how many more there were past MAX_MARKERS. */
export interface AcceptedList {
  readonly folder: string;
  readonly entries: readonly AcceptedEntry[];
  readonly more: number;
  /** Why no marker of the folder counts (others can write to it), or null. */
  readonly problem: string | null;
}

/** A regular file of the user's, not a link, read whole when at most `max` bytes; null otherwise. */
function readOwn(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    const uid = userId();
    if (!st.isFile() || st.size > max || (uid !== null && st.uid !== uid)) return null;
    const buf = Buffer.alloc(st.size);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, st.size, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** What a marker's text records: its path and text hash, when it holds them as accept() writes them. */
function recorded(text: string | null): { path: string; sha256: string; time?: string } | null {
  if (text === null || text === '') return null;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v.path !== 'string' || typeof v.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(v.sha256)) return null;
    return { path: v.path, sha256: v.sha256, ...(typeof v.time === 'string' ? { time: v.time } : {}) };
  } catch {
    return null;
  }
}

/** Where the allowlist at `path`, accepted with text hash `sha256`, stands now. */
function stateOf(path: string, sha256: string): AcceptedState {
  try {
    lstatSync(path);
  } catch {
    return 'gone';
  }
  const now = readOwn(path, 64 * 1024);
  if (now === null) return 'changed since'; // no longer a file of the user's the hooks would read
  return textHash(now) === sha256 ? 'in use' : 'changed since';
}

/** The marker names of the folder (at most MAX_MARKERS; the rest counted). */
function markerNames(folder: string): { names: string[]; more: number } {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => MARKER_NAME.test(n)).sort();
  } catch {
    return { names: [], more: 0 };
  }
  return { names: names.slice(0, MAX_MARKERS), more: Math.max(0, names.length - MAX_MARKERS) };
}

/** The accepted allowlists of the user's state home (from `env`). Never throws. */
export function listAccepted(env: NodeJS.ProcessEnv = process.env): AcceptedList {
  const folder = acceptedFolder(env);
  const { names, more } = markerNames(folder);
  const entries: AcceptedEntry[] = [];
  for (const key of names) {
    const marker = join(folder, key);
    let mtime: number;
    try {
      const st = lstatSync(marker);
      const uid = userId();
      if (!st.isFile() || (uid !== null && st.uid !== uid)) continue; // a marker the hooks would not count
      mtime = st.mtimeMs;
    } catch {
      continue;
    }
    const r = recorded(readOwn(marker, MAX_MARKER_BYTES));
    // a marker counts only under the name of its path and text: content naming another file is not that file's
    const ok = r !== null && markerKey(r.path, r.sha256) === key;
    const time = ok && r.time !== undefined ? r.time : new Date(mtime).toISOString();
    entries.push(ok ? { key, path: r.path, time, state: stateOf(r.path, r.sha256) } : { key, path: null, time, state: 'unknown' });
  }
  let problem: string | null = null;
  try {
    problem = folderProblem(folder);
  } catch {
    // no folder: no markers
  }
  return { folder, entries, more, problem };
}

/**
 * Removes every marker of the allowlist at `path` (`paths`: the names it may be recorded under, its real
 * path first): those whose content records it, and the one of its text now (`text`, when it can be read: a
 * marker from before s21 records nothing). Returns how many were removed. Throws the file system's error.
 */
export function revokeAccepted(paths: readonly string[], text: string | null, env: NodeJS.ProcessEnv = process.env): number {
  const folder = acceptedFolder(env);
  const targets = new Set<string>();
  if (text !== null) for (const p of paths) targets.add(acceptedKey(p, text));
  for (const e of listAccepted(env).entries) if (e.path !== null && paths.includes(e.path)) targets.add(e.key);
  let removed = 0;
  for (const key of targets) {
    try {
      unlinkSync(join(folder, key));
      removed++;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return removed;
}
