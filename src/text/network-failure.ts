/**
 * A network error in words a person can act on, as file-failure.ts says file errors: a port that could not
 * be listened on (serve, a NATS worker's metrics listener) said as what went wrong and what to do, in place
 * of `cannot listen on 127.0.0.1:80 (EACCES)`; and the raw codes a NATS client's messages quote
 * (`getaddrinfo ENOTFOUND nats.internal`, `connect EHOSTUNREACH 10.0.0.9:4222`) said in words beside them.
 */

/** What each listen code means, and what to do, for `host`:`port` given by the flag `portFlag` (and `--host`, when the command has it). */
function listenWords(code: string, host: string, port: number, portFlag: string, hostFlag: string | null): string | null {
  switch (code) {
    case 'EADDRINUSE':
      return `the port is in use by another program (ss -ltnp 'sport = :${port}' names it); stop it, or give another port (${portFlag} N; ${portFlag} 0 takes a free one)`;
    case 'EACCES':
    case 'EPERM':
      return port > 0 && port < 1024
        ? `permission denied: a port below 1024 needs root or the CAP_NET_BIND_SERVICE capability; give a port from 1024 up (${portFlag} N)`
        : `permission denied by the system (a security policy such as SELinux, or a sandbox); give another port (${portFlag} N)`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine (ip addr lists them)${hostFlag === null ? '' : `; give one of them (${hostFlag}), or 127.0.0.1`}`;
    case 'EAFNOSUPPORT':
      return `this machine cannot listen on ${host}'s address family (IPv6 turned off?)${hostFlag === null ? '' : `; give an IPv4 address (${hostFlag} 127.0.0.1)`}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `the host name ${host} is not known here (no DNS answer)${hostFlag === null ? '' : `; give an address (${hostFlag} 127.0.0.1)`}`;
    default:
      return null;
  }
}

/** The codes {@link listenFailure} says in words. */
const LISTEN_CODES: ReadonlySet<string> = new Set(['EADDRINUSE', 'EACCES', 'EPERM', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/** Where a listener was to listen, and the flags a person changes it with. */
export interface ListenPlace {
  readonly host: string;
  readonly port: number;
  /** `--port`, `--metrics-port`. */
  readonly portFlag: string;
  /** `--host`, or null when the command listens on a fixed host. */
  readonly hostFlag: string | null;
}

/**
 * `e` (an error of `server.listen`) as one line, `cannot listen on 127.0.0.1:80: permission denied: a port
 * below 1024 needs ...`, or null when it is not an error a person's choice of host or port explains (it is
 * then thrown as it is).
 */
export function listenFailure(e: unknown, at: ListenPlace): string | null {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !LISTEN_CODES.has(code)) return null;
  const where = at.host.includes(':') ? `[${at.host}]:${at.port}` : `${at.host}:${at.port}`;
  return `cannot listen on ${where}: ${listenWords(code, at.host, at.port, at.portFlag, at.hostFlag) as string}`;
}

/** The socket codes a client's message may quote, in words. */
const CONNECT_MEANINGS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'no such host name: DNS does not know it',
  EAI_AGAIN: 'the host name could not be looked up (DNS did not answer)',
  ECONNREFUSED: 'connection refused: nothing listens on that port',
  ECONNRESET: 'the connection was reset by the other side',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'the host cannot be reached: no route to it',
  ENETUNREACH: 'the network cannot be reached',
  EPIPE: 'the connection was closed by the other side',
  ECONNABORTED: 'the connection was aborted',
  EADDRNOTAVAIL: 'the address is not available here',
};

/** Characters of a message looked at for a code (capped before the pattern sees it). */
const PROBLEM_SCAN_CHARS = 4096;

const CODE_IN_TEXT = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ECONNABORTED|EADDRNOTAVAIL)\b/;

/**
 * A client's error message with the first socket code it quotes said in words after it
 * (`getaddrinfo ENOTFOUND nats.internal (no such host name: DNS does not know it)`); the message as it is
 * when it quotes none or already says it (`connection refused`). Linear: one scan of a fixed alternation.
 */
export function connectProblem(message: string): string {
  const m = CODE_IN_TEXT.exec(message.length > PROBLEM_SCAN_CHARS ? message.slice(0, PROBLEM_SCAN_CHARS) : message);
  if (m === null) return message;
  const words = CONNECT_MEANINGS[m[1] as string] as string;
  return message.toLowerCase().includes(words.split(':')[0] as string) ? message : `${message} (${words})`;
}
