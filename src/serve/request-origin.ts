/**
 * Who may talk to `loopwatch serve`, by the names in a request: a web page must not be able to use a
 * server on the user's own machine. Two attacks are shut out:
 *
 * - **DNS rebinding**: a page of `evil.example` whose name is made to resolve to 127.0.0.1 talks to the
 *   server as its own origin, so the browser sends no preflight; its requests carry `Host: evil.example`.
 *   Only loopback names and addresses, the address the server is bound to and the names given with
 *   `--allow-host` are served.
 * - **Cross-site requests**: a page's `fetch` or form sends `Origin: https://evil.example`; a request with
 *   an `Origin` whose host is not one of the above (or `Origin: null`) is refused. Clients that are not
 *   browsers send no `Origin`. With bodies required to be `application/json` (http-routes.ts), a
 *   cross-site page cannot even send a request without a preflight, which the server never grants.
 *
 * `/healthz` is answered whatever the names (a load balancer's probe uses the machine's address); it
 * tells counts, not sessions.
 */
import type { IncomingMessage } from 'node:http';
import { isLoopback } from './bearer-token.js';
import { HttpRefusal } from './http-refusal.js';
import { cutText } from '../text/shown-text.js';

/** The host part of a `Host` header or of a URL's authority (`[::1]:7878` -> `::1`), lower case, without a final dot. */
export function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  // `[v6]:port`, a bare v6 address (as --host gives one), or `name:port`
  const name = a.startsWith('[') ? a.slice(1, a.indexOf(']') < 0 ? a.length : a.indexOf(']')) : a.indexOf(':') !== a.lastIndexOf(':') ? a : a.replace(/:\d*$/, '');
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The hosts a server accepts in `Host` and `Origin`. */
export class AllowedHosts {
  private readonly names: ReadonlySet<string>;

  /**
   * `bound`: the address listened on (accepted unless it is a wildcard such as 0.0.0.0); `extra`: the
   * `--allow-host` names; `any`: accept every name (only safe behind a token).
   */
  constructor(
    bound: string,
    extra: readonly string[] = [],
    readonly any = false,
  ) {
    const names = new Set(extra.map(hostName));
    const b = hostName(bound);
    if (b !== '0.0.0.0' && b !== '::' && b !== '') names.add(b);
    this.names = names;
  }

  /** Whether `name` (as hostName gives it) may be served. */
  allows(name: string): boolean {
    return this.any || isLoopback(name) || name === 'localhost' || name.endsWith('.localhost') || this.names.has(name);
  }

  /** A 403 refusal when the request's `Host` or `Origin` names a host not allowed; undefined when it may be served. */
  refusal(req: IncomingMessage): HttpRefusal | undefined {
    const host = req.headers.host;
    if (host !== undefined && !this.allows(hostName(host))) {
      return new HttpRefusal(403, 'bad_host', `Host ${JSON.stringify(cutText(host, 100))} is not a name of this server (loopback, the address it listens on, or --allow-host); a DNS-rebinding page would send one like it`, 'host');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.allowsOrigin(origin)) {
      return new HttpRefusal(403, 'bad_origin', `Origin ${JSON.stringify(cutText(origin, 100))} is not allowed: a web page may not call this server (only its own names, or --allow-host, may)`, 'origin');
    }
    return undefined;
  }

  private allowsOrigin(origin: string): boolean {
    const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)$/i.exec(origin.trim());
    if (m === null) return false; // `null` (sandboxed pages, files) or not an origin at all
    const authority = m[1] as string;
    return this.allows(hostName(authority.slice(authority.lastIndexOf('@') + 1)));
  }
}
