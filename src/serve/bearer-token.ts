/**
 * The optional bearer token of `loopwatch serve` (`--token-file`): read once at start, compared in constant
 * time. Without one the server only listens on a loopback address.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Checks `Authorization: Bearer <token>` headers against one token. */
export class BearerToken {
  private readonly digest: Buffer;

  /** `token`: the secret (non-empty, no whitespace inside). */
  constructor(token: string) {
    this.digest = createHash('sha256').update(token).digest();
  }

  /** Reads the token from a file (its first line, trimmed). Throws an Error naming the file when it is unusable. */
  static fromFile(path: string): BearerToken {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(`--token-file ${path}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    const token = (text.split(/\r?\n/)[0] ?? '').trim();
    if (token.length < 16 || /\s/.test(token)) throw new Error(`--token-file ${path}: the first line must hold a token of at least 16 characters without spaces`);
    return new BearerToken(token);
  }

  /** Whether an `authorization` header value carries the token. */
  accepts(header: string | undefined): boolean {
    if (header === undefined || !/^Bearer /i.test(header)) return false;
    const given = createHash('sha256').update(header.slice(7).trim()).digest();
    return timingSafeEqual(given, this.digest);
  }
}

/** Whether `host` is a loopback address (or a name for one). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
