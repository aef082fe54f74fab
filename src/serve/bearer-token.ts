/**
 * The optional bearer token of `loopwatch serve` (`--token-file`): read once at start, compared in constant
 * time. Without one the server only listens on a loopback address.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync } from 'node:fs';
import { MAX_SECRET_FILE_BYTES, openRegularFile, readBoundedFd, readFailure } from '../formats/regular-file.js';
import { HttpRefusal } from './http-refusal.js';

/**
 * What a request without the token is told: where the token is (serve printed the file at its start), and
 * how curl sends it; the same text in a hook route's `Loopwatch-Unchecked` header, where a hook command
 * without the header would otherwise leave the agent unchecked with no hint why. Names no path of the
 * server's user (the caller may be anyone who reaches the port).
 */
const UNAUTHORIZED =
  'a valid "Authorization: Bearer <token>" header is required: the token is the first line of the file loopwatch serve named when it started ' +
  '(--token-file, else serve.token in $XDG_STATE_HOME/loopwatch or ~/.local/state/loopwatch); curl sends it with -H @serve.curl-header from that folder';

/**
 * The answer to a request without the token (`loopwatch serve`'s routes, a NATS worker's `/metrics`): 401,
 * where the token is and how to send it, and the connection closed.
 */
export function unauthorized(): HttpRefusal {
  return new HttpRefusal(401, 'unauthorized', UNAUTHORIZED, 'authorization', { 'www-authenticate': 'Bearer', connection: 'close' });
}

/** Checks `Authorization: Bearer <token>` headers against one token. */
export class BearerToken {
  private readonly digest: Buffer;

  /**
   * `token`: the secret (non-empty, no whitespace inside). `exposure`: why others than the server's user may
   * read the file it came from (said once at start), or null.
   */
  constructor(
    token: string,
    readonly exposure: string | null = null,
  ) {
    this.digest = createHash('sha256').update(token).digest();
  }

  /** Reads the token from a file (its first line, trimmed). Throws an Error naming the file when it is unusable. */
  static fromFile(path: string): BearerToken {
    let text: string;
    let exposure: string | null;
    try {
      // a FIFO or device is refused unopened-for-reading (openRegularFile), a file over 1 MiB at its size, as
      // the NATS credential and TLS files are (readBoundedFd); the owner and mode are those of what is read
      const fd = openRegularFile(path);
      try {
        exposure = readableByOthers(fstatSync(fd));
        text = readBoundedFd(fd, path, MAX_SECRET_FILE_BYTES).toString('utf8');
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new Error(`--token-file ${path}: cannot read the file (${readFailure(e)})`);
    }
    const token = (text.split(/\r?\n/)[0] ?? '').trim();
    if (token.length < 16 || /\s/.test(token)) throw new Error(`--token-file ${path}: the first line must hold a token of at least 16 characters without spaces`);
    return new BearerToken(token, exposure === null ? null : `--token-file ${path}: ${exposure}; whoever can read it can use the server (chmod 600 it)`);
  }

  /** Whether an `authorization` header value carries the token. */
  accepts(header: string | undefined): boolean {
    if (header === undefined || !/^Bearer /i.test(header)) return false;
    const given = createHash('sha256').update(header.slice(7).trim()).digest();
    return timingSafeEqual(given, this.digest);
  }
}

/** Why others than this user may read a file of mode and owner `st`, or null (always null where the platform has no user ids). */
function readableByOthers(st: { uid: number; mode: number }): string | null {
  if (typeof process.getuid !== 'function') return null;
  if (st.uid !== process.getuid()) return `the file is owned by uid ${st.uid}, not by this user`;
  if ((st.mode & 0o044) !== 0) return `its group or others can read it (mode 0${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** Whether `host` is a loopback address (or a name for one). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
