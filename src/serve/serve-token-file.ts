/**
 * The bearer token `loopwatch serve` makes itself when it is given none. On 127.0.0.1 without a token any
 * local user could post calls into the user's sessions (making their hook block or allow), read verdicts
 * and snapshots, and fill the server's memory; so by default the server requires a token kept in a file
 * only the user can read, and every client of the user's reads it there:
 *
 * ```
 *   $XDG_STATE_HOME/loopwatch/serve.token          the token, one line            (0600)
 *   $XDG_STATE_HOME/loopwatch/serve.curl-header    "Authorization: Bearer <token>" (0600), for curl -H @FILE
 * ```
 *
 * (`~/.local/state` without an absolute XDG_STATE_HOME: state-dir.ts; the folder 0700). The token is made once (32 random bytes,
 * base64url) and kept across restarts, so a hook command written once keeps working. `-H @FILE` keeps the
 * token out of curl's command line, which other users can read (`ps`, /proc/PID/cmdline).
 *
 * Nothing a neighbour plants is followed or trusted: the folder must be this user's and closed to others'
 * writes, and so must its parents (root's too, or others' with the sticky bit: a neighbour who can write in a
 * parent could swap the folder between its check and the token's write); the files are created with O_CREAT|O_EXCL|O_NOFOLLOW (a link planted at the name is not written
 * through), their mode set to 0600 on the open descriptor whatever the umask, and read back with
 * O_NOFOLLOW, refused unless a regular file of this user that others can neither read nor write.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NotPrivateError } from '../errors.js';
import { O_NOFOLLOW, notPrivate, readPrivateFile, unsafeParent } from '../hooks/private-path.js';
import { loopwatchStateHome } from '../hooks/state-dir.js';
import { BearerToken } from './bearer-token.js';

/** Largest token file read, in bytes (one written is 44). */
const MAX_TOKEN_FILE_BYTES = 4096;

/** The token file of this user: `$XDG_STATE_HOME/loopwatch/serve.token` (or `~/.local/state/...`). */
export function defaultTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(loopwatchStateHome(env), 'serve.token');
}

/** The curl header file beside a token file: `serve.curl-header` for `serve.token`. */
export function curlHeaderPath(tokenPath: string): string {
  return tokenPath.replace(/\.token$/, '') + '.curl-header';
}

/** The token the server made or found, and where. */
export interface ServeTokenFile {
  readonly token: BearerToken;
  readonly path: string;
  /** The `Authorization` header line for curl (`-H @FILE`). */
  readonly headerPath: string;
  /** Made by this call (not found from a run before). */
  readonly made: boolean;
}

/** Makes the folder (0700) if it is missing; throws NotPrivateError when it is a link, or another user's, or others may write in it or swap it (unsafeParent). */
function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new NotPrivateError(dir, 'it is not a folder (a symbolic link or a file)');
  const why = notPrivate(st) ?? unsafeParent(dir);
  if (why !== null) throw new NotPrivateError(dir, why);
}

/** Writes `text` to a new file at `path`, 0600; false when a file (or link) of that name is there already. */
function createPrivate(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    fchmodSync(fd, 0o600); // whatever the umask
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The text of the secret file at `path` (see the header), its first MAX_TOKEN_FILE_BYTES; null when there is none. Throws NotPrivateError when it cannot be trusted. */
function readPrivate(path: string): string | null {
  return readPrivateFile(path, { maxBytes: MAX_TOKEN_FILE_BYTES, truncate: true, secret: true })?.toString('utf8') ?? null;
}

/**
 * The server's token at `path` (default: defaultTokenPath()): read when the file is there, else made (see
 * the header), with its curl header file beside it. Throws NotPrivateError for a file or folder that cannot
 * be trusted, an Error naming the file for one without a usable token, the file system's error otherwise.
 */
export function serveTokenFile(path: string = defaultTokenPath()): ServeTokenFile {
  privateFolder(dirname(path));
  const headerPath = curlHeaderPath(path);
  const fresh = randomBytes(32).toString('base64url');
  const made = createPrivate(path, `${fresh}\n`);
  const text = readPrivate(path);
  if (text === null) throw new Error(`${path}: the token file vanished while it was read`);
  const token = (text.split(/\r?\n/)[0] ?? '').trim();
  if (token.length < 16 || /\s/.test(token)) throw new Error(`${path}: the first line must hold a token of at least 16 characters without spaces (delete the file to have a new one made)`);
  const header = `Authorization: Bearer ${token}\n`;
  // the folder is the user's alone: a header file left from another token is replaced, not written through
  if (!createPrivate(headerPath, header) && readPrivate(headerPath) !== header) {
    unlinkSync(headerPath);
    if (!createPrivate(headerPath, header)) throw new Error(`${headerPath}: it could not be written again`);
  }
  return { token: new BearerToken(token), path, headerPath, made };
}
