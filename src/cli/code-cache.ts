/**
 * The hook's compiled code between processes: V8's code cache of the bundle (`dist/hook/hook.cjs`), kept in
 * a folder of the user's own, never in the state folder (which a user may point anywhere, a shared one
 * included). Bytecode read from a cache runs as the hook, and V8 checks only its version, flags and the
 * source's length, so a cache someone else could write is code someone else could run: a cache is read only
 * when it and its folder are private to the user (private-path.ts), and refused with one line otherwise.
 *
 * ```
 *   $XDG_CACHE_HOME/loopwatch/hook-code/        (else ~/.cache/..., on Windows %LOCALAPPDATA%\loopwatch\hook-code)
 *       made 0700; a folder of the user's that others can write to is made 0700 again before a cache is written
 *     hook-<install>-<node version>-<arch>-<bundle size>-<bundle mtime>.v8
 *       <install>: a hash of the bundle's real path, so installs of loopwatch do not replace each other's caches
 * ```
 *
 * Writing a cache removes the same install's caches of other versions, and any cache untouched for 30 days.
 */
import { chmodSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { NotPrivateError } from '../errors.js';
import { nearestExisting, notPrivate, readPrivateFile, userId } from '../hooks/private-path.js';
import { homeFolder } from '../hooks/state-dir.js';

const PREFIX = 'hook-';
/** Caches untouched this long (milliseconds) are removed when another is written. */
const UNUSED_MS = 30 * 24 * 3600 * 1000;

/**
 * The folder of the hook's code caches for an environment. A relative XDG_CACHE_HOME (or LOCALAPPDATA) is
 * ignored, as the XDG Base Directory specification asks and as state-dir.ts ignores a relative
 * XDG_STATE_HOME: the hook runs in the project's folder, so it put the cache into the project.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const local = process.platform === 'win32' ? env.LOCALAPPDATA : undefined;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : local !== undefined && isAbsolute(local) ? local : join(homeFolder(env), '.cache');
  return join(base, 'loopwatch', 'hook-code');
}

/** FNV-1a (32 bits) of `text`, in hex: a short name for an install (no crypto module to load). */
function installKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The cache file of the bundle at `bundle` (of `size` bytes, modified at `mtime` ms) in `dir`. */
export function codeCachePath(dir: string, bundle: string, size: number, mtime: number): string {
  let real = bundle;
  try {
    real = realpathSync(bundle);
  } catch {
    // the path as given
  }
  return join(dir, `${PREFIX}${installKey(real)}-${process.version}-${process.arch}-${size}-${mtime}.v8`);
}

/** The source V8 compiles for the bundle: CommonJS's wrapper around it. */
export function codeWrapper(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** What was found for a cache path: its bytes (if any), and why it was refused (if it was). */
export interface CodeCache {
  readonly path: string;
  readonly data: Buffer | undefined;
  /** Why the cache or its folder is not used, for one line on stderr; undefined when nothing is wrong. */
  readonly refused: string | undefined;
}

/** Reads the cache at `path` when it and its folder are private to the user. Never throws. */
export function readCodeCache(path: string, dir: string): CodeCache {
  try {
    const folder = notPrivate(statSync(dir));
    if (folder !== null) return { path, data: undefined, refused: `the code cache folder ${dir} is not used: ${folder}` };
  } catch {
    return { path, data: undefined, refused: undefined }; // no folder yet: the first run writes it
  }
  try {
    return { path, data: readPrivateFile(path) ?? undefined, refused: undefined };
  } catch (e) {
    return { path, data: undefined, refused: e instanceof NotPrivateError ? `the code cache ${e.message}; it is not used` : undefined };
  }
}

/** Removes the caches `path` replaces (the install's other versions) and caches untouched for 30 days. */
function prune(dir: string, path: string, now: number): void {
  const install = path.slice(dir.length + 1, dir.length + 1 + PREFIX.length + 8);
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PREFIX) || join(dir, name) === path) continue;
    const file = join(dir, name);
    if (name.startsWith(install) || now - statSync(file).mtimeMs > UNUSED_MS) unlinkSync(file);
  }
}

/**
 * Writes the cache (0600) into its folder (made 0700; a folder of the user's that others can write to is
 * made 0700 first; one of another user's is left alone, and so is a missing one whose nearest existing parent
 * is another user's: root running `hook install` for a user's `HOME` made `~/.cache` root's 0700). A failure
 * only costs later runs some time.
 */
export function saveCodeCache(cache: CodeCache, dir: string, data: Buffer): void {
  try {
    const uid = userId();
    const near = uid === null ? null : nearestExisting(dir);
    if (near !== null && near.uid !== uid) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (uid !== null && st.uid !== uid) return;
    if (uid !== null && (st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    prune(dir, cache.path, Date.now());
    // a new name (O_EXCL): nothing left in the folder from before it was private can redirect the write
    const tmp = `${cache.path}.${process.pid}.${Date.now().toString(36)}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, cache.path);
  } catch {
    // an unwritable folder: later runs compile the bundle each time
  }
}
