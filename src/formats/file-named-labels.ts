/**
 * Labels of sessions named after their file. A record that names no session (a Gemini CLI checkpoint, a
 * conversation without an id) is a session named after the file it was read from, as that path was given:
 * `FILE:LINE` (read-records.ts), `FILE:LINE#INDEX` for one of an array's records. The same file typed
 * another way (absolute or relative, from another folder, through a symbolic link) is the same session, so
 * a label keyed by one form of the path must find it when another is typed.
 *
 * A session and a label are paired by the file's place: the session's file, symbolic links resolved, relative
 * to the labels file's folder (also resolved) and under that folder's name (`holdout7/gemini-cli/p/c.json`),
 * is the end of the label's path, whole segments, with the same `:LINE`
 * (`../../sets/holdout7/gemini-cli/p/c.json:1` and `/work/sets/holdout7/gemini-cli/p/c.json:1` both are);
 * or the label's path is that place within the folder, as a path relative to it (`gemini-cli/p/c.json:1`).
 * A file outside the folder, or an end that two labels share, pairs with none. Used only when the session
 * id matches no label as it is.
 *
 * ```
 *   label:   ../../sets/holdout7/gemini-cli/p/c.json:1 ──► ends: c.json:1, p/c.json:1, ..., holdout7/gemini-cli/p/c.json:1, ...
 *   session: /tmp/h7-link/gemini-cli/p/c.json:1 ──► realpath, relative to realpath(folder), under its name ──► holdout7/gemini-cli/p/c.json:1
 * ```
 */
import { realpathSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';

/** A session id named after its file: the path, then `:LINE` and optionally `#INDEX`. */
const FILE_NAMED = /^(.+)(:\d+(?:#\d+)?)$/;

/** Path segments, whichever separator the path was typed with. */
const segments = (path: string): string[] => path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');

/** The file-named labels by every end of their paths (null: two labels share that end), and by their relative paths whole. */
interface PathIndex<T> {
  readonly ends: Map<string, T | null>;
  readonly whole: Map<string, T>;
}

const cache = new WeakMap<ReadonlyMap<string, unknown>, PathIndex<unknown>>();

/** The index of a labels map's file-named labels, built once per map. */
function indexOf<T>(labels: ReadonlyMap<string, T>): PathIndex<T> {
  const known = cache.get(labels) as PathIndex<T> | undefined;
  if (known !== undefined) return known;
  const index: PathIndex<T> = { ends: new Map(), whole: new Map() };
  for (const [session, label] of labels) {
    const m = FILE_NAMED.exec(session);
    if (m === null) continue;
    const path = m[1] as string;
    const parts = segments(path);
    const tail = m[2] as string;
    if (!isAbsolute(path) && parts[0] !== '..' && parts.length > 0) index.whole.set(`${parts.join('/')}${tail}`, label);
    const seen = new Set<string>();
    for (let i = parts.length - 1; i >= 0; i--) {
      const end = `${parts.slice(i).join('/')}${tail}`;
      if (seen.has(end)) continue;
      seen.add(end);
      index.ends.set(end, index.ends.has(end) && index.ends.get(end) !== label ? null : label);
    }
  }
  cache.set(labels, index);
  return index;
}

/** `path` with its symbolic links resolved, or null when it cannot be (gone, unreadable). */
function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The label of `session` when it is named after a file inside `labelsDir` and one label names that file
 * (see the header); undefined otherwise. Reads the file system (two realpath calls) only for an id of the
 * form `FILE:LINE`.
 */
export function fileNamedLabel<T>(labels: ReadonlyMap<string, T>, session: string, labelsDir: string): T | undefined {
  const m = FILE_NAMED.exec(session);
  if (m === null) return undefined;
  const file = real(m[1] as string);
  const dir = real(labelsDir);
  if (file === null || dir === null) return undefined;
  const inside = segments(relative(dir, file));
  if (inside.length === 0 || inside[0] === '..' || isAbsolute(relative(dir, file))) return undefined;
  const tail = m[2] as string;
  const index = indexOf(labels);
  const under = index.ends.get(`${[basename(dir), ...inside].join('/')}${tail}`);
  return under ?? index.whole.get(`${inside.join('/')}${tail}`);
}
