/**
 * The names loopwatch uses on NATS: subjects, streams, consumers and key-value buckets, and the one encoding
 * that puts any session id into a subject token or a key.
 *
 * ```
 *  publish  loopwatch.in.<session>  ──stream LOOPWATCH_CALLS, subject transform──>  loopwatch.calls.<p>.<session>
 *           (p = partition(N, session): the server's FNV-1a hash of the token, mod N)   │ durable consumer partition-<p>-<epoch>
 *                                                                                      v (owned by one worker)
 *  verdicts loopwatch.verdicts.<session>  (stream LOOPWATCH_VERDICTS, deduplicated by Nats-Msg-Id)
 *  state    KV loopwatch-sessions:  s.<session>     snapshots;   KV loopwatch-owners: w.<worker>, p.<p>  leases
 * ```
 *
 * Session token: the id's UTF-8 bytes, each byte outside `A-Z a-z 0-9 _ -` written `=HH` (two upper-case hex
 * digits), so `run.1/x` is `run=2E1=2Fx`. Valid in a subject token and in a key, and the same in every
 * language.
 */

/** Partitions of the calls stream unless told otherwise. */
export const DEFAULT_PARTITIONS = 16;

/** What each stream may store unless told otherwise (`--stream-max-bytes`), in bytes: 1 GiB. */
export const DEFAULT_STREAM_MAX_BYTES = 1 << 30;
/** What the sessions bucket may hold unless told otherwise (`--sessions-max-bytes`), in bytes: 1 GiB. */
export const DEFAULT_SESSIONS_MAX_BYTES = 1 << 30;
/** The least a stream or the sessions bucket may be given (`--stream-max-bytes`, `--sessions-max-bytes`), in bytes: 1 MiB. */
export const MIN_STORE_BYTES = 1 << 20;
/** The stream every call goes into. */
export const CALLS_STREAM = 'LOOPWATCH_CALLS';
/** The stream verdicts are kept in (deduplicated). */
export const VERDICTS_STREAM = 'LOOPWATCH_VERDICTS';
/** The bucket of session snapshots. */
export const SESSIONS_BUCKET = 'loopwatch-sessions';
/** The bucket of worker heartbeats and partition leases. */
export const OWNERS_BUCKET = 'loopwatch-owners';
/** Prefix callers publish to: `loopwatch.in.<session>`. */
export const INPUT_PREFIX = 'loopwatch.in';
/** Prefix of the partitioned subjects: `loopwatch.calls.<partition>.<session>`. */
export const CALLS_PREFIX = 'loopwatch.calls';
/** Prefix of verdict subjects: `loopwatch.verdicts.<session>`. */
export const VERDICTS_PREFIX = 'loopwatch.verdicts';
/** Subject on which a worker reports a session whose state could not be kept: `loopwatch.events.session-lost.<session>`. */
export const SESSION_LOST_PREFIX = 'loopwatch.events.session-lost';
/**
 * Subject on which a caller whose call the full calls stream refused asks the workers to purge what they
 * have checked at once (core NATS request; each worker answers once its purge is done): `loopwatch.control.purge`.
 */
export const PURGE_SUBJECT = 'loopwatch.control.purge';
/** Header naming a subject the worker also sends the call's result to (request/reply through a stream). */
export const REPLY_HEADER = 'Loopwatch-Reply';
/** Header of an operation other than checking calls: `end` ends the session. */
export const OP_HEADER = 'Loopwatch-Op';

const SAFE = /^[A-Za-z0-9_-]+$/;

/** Longest reply subject a worker answers on, in characters. */
export const MAX_REPLY_SUBJECT = 256;
/** A subject one can publish to: dot-separated tokens of printable ASCII, no wildcard. */
const PUBLISHABLE = /^[!-)+,\-/-=?-~]+(?:\.[!-)+,\-/-=?-~]+)*$/;

/**
 * Whether a worker may send a message's answer to `reply`, the subject a caller named in Loopwatch-Reply
 * (its inbox): a subject one can publish to, not under `$` (the server's JetStream, key-value and system
 * APIs, which the worker's connection may use) nor under `loopwatch.` (the service's own calls, verdicts
 * and events), so that no caller can have the worker publish where it may not.
 */
export function isReplySubject(reply: string): boolean {
  return reply.length <= MAX_REPLY_SUBJECT && PUBLISHABLE.test(reply) && !reply.startsWith('$') && !reply.startsWith('loopwatch.');
}

/** A session id as a subject token or key (see the module's doc). */
export function sessionToken(sessionId: string): string {
  if (SAFE.test(sessionId)) return sessionId;
  let out = '';
  for (const b of Buffer.from(sessionId, 'utf8')) {
    const c = String.fromCharCode(b);
    out += (b < 0x80 && /[A-Za-z0-9_-]/.test(c)) ? c : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The session id a token stands for; null when the token is not one sessionToken() makes. */
export function sessionFromToken(token: string): string | null {
  if (SAFE.test(token)) return token;
  if (!/^(?:[A-Za-z0-9_-]|=[0-9A-F]{2})+$/.test(token)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '=') {
      bytes.push(parseInt(token.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(token.charCodeAt(i));
  }
  const id = Buffer.from(bytes).toString('utf8');
  return sessionToken(id) === token ? id : null;
}

/** Where a caller publishes a session's calls. */
export const inputSubject = (sessionId: string): string => `${INPUT_PREFIX}.${sessionToken(sessionId)}`;
/** Where a session's verdicts are published. */
export const verdictSubject = (sessionId: string): string => `${VERDICTS_PREFIX}.${sessionToken(sessionId)}`;
/** The filter of partition `p`'s consumer. */
export const partitionFilter = (p: number): string => `${CALLS_PREFIX}.${p}.*`;
/** The durable consumer of partition `p` in ownership epoch `epoch` (without: the prefix of its names). */
export const partitionConsumer = (p: number, epoch?: number): string => (epoch === undefined ? `partition-${p}` : `partition-${p}-${epoch}`);
/** A session's snapshot key. */
export const sessionKey = (sessionId: string): string => `s.${sessionToken(sessionId)}`;
/** A worker's heartbeat key. */
export const workerKey = (workerId: string): string => `w.${workerId}`;
/** Partition `p`'s lease key. */
export const leaseKey = (p: number): string => `p.${p}`;

/** The partition and session of a partitioned subject; null when it is not one. */
export function parseCallSubject(subject: string): { partition: number; sessionId: string } | null {
  const parts = subject.split('.');
  if (parts.length !== 4 || `${parts[0]}.${parts[1]}` !== CALLS_PREFIX) return null;
  const partition = Number(parts[2]);
  const sessionId = sessionFromToken(parts[3] as string);
  return Number.isInteger(partition) && sessionId !== null ? { partition, sessionId } : null;
}
