/**
 * Session state in the `loopwatch-sessions` key-value bucket: each session's snapshot with the stream
 * sequence of the last call it holds, written with compare-and-set on the key's revision, so that a worker
 * that lost its partition without knowing it can never overwrite what the new owner wrote.
 *
 * ```
 *   value: "LWKV" | u8 version (1) | u8 flags (1: ended, 2: not kept) | u16 0 | f64 last stream sequence | u32 calls | snapshot (LWSS)
 * ```
 * An ended session keeps a value with the `ended` flag and no snapshot until no call of it can come again.
 * A session whose value would be over the server's message limit (`max_payload`) keeps a value with the
 * `not kept` flag and no snapshot: how far it went in the stream, so that a new owner starts it again empty
 * from there rather than from an older state.
 */
import type { KV } from '@nats-io/kv';
import { BucketRoom, NEW_SESSIONS_SHARE } from './bucket-room.js';
import { sessionKey } from './subjects.js';

const MAGIC = 0x4c574b56; // "LWKV"
const HEAD = 20;

/** A session's stored state. */
export interface StoredSession {
  /** Stream sequence of the last call the snapshot holds (calls at or below it are not checked again). */
  readonly lastSeq: number;
  /** Calls the session had checked. */
  readonly calls: number;
  /** Whether the session was ended (then `snapshot` is empty). */
  readonly ended: boolean;
  /** Whether the session's state was too large to keep (then `snapshot` is empty). */
  readonly notKept?: boolean;
  /** The session's snapshot bytes. */
  readonly snapshot: Uint8Array;
}

/** A stored session and the key's revision (for the next compare-and-set), or a revision alone when absent. */
export interface LoadedSession {
  readonly stored: StoredSession | null;
  /** The key's revision; 0 when the key never existed (or was purged). */
  readonly revision: number;
  /** Why the stored value could not be read, when it could not (then `stored` is null). */
  readonly problem?: string;
}

/** Encodes a stored session. */
export function encodeStored(s: StoredSession): Uint8Array {
  const out = new Uint8Array(HEAD + s.snapshot.byteLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC);
  v.setUint8(4, 1);
  v.setUint8(5, (s.ended ? 1 : 0) | (s.notKept === true ? 2 : 0));
  v.setFloat64(8, s.lastSeq, true);
  v.setUint32(16, s.calls, true);
  out.set(s.snapshot, HEAD);
  return out;
}

/** Decodes a stored session; throws an Error saying what is wrong with bytes that are not one. */
export function decodeStored(bytes: Uint8Array): StoredSession {
  if (bytes.byteLength < HEAD) throw new Error(`a stored session is at least ${HEAD} bytes, this one ${bytes.byteLength}`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0) !== MAGIC) throw new Error('not a loopwatch stored session (bad magic)');
  if (v.getUint8(4) !== 1) throw new Error(`stored session version ${v.getUint8(4)} is not known here`);
  const flags = v.getUint8(5);
  return { ended: (flags & 1) === 1, ...((flags & 2) === 2 ? { notKept: true } : {}), lastSeq: v.getFloat64(8, true), calls: v.getUint32(16, true), snapshot: bytes.subarray(HEAD) };
}

/**
 * Bytes a message's headers may take beside a stored value: a key-value write carries a header or two
 * (`Nats-Expected-Last-Subject-Sequence: <n>`, under 100 bytes), and the server's `max_payload` counts
 * headers and value together.
 */
export const HEADER_ROOM = 1024;

/** A session's value is larger than the server takes in one message: it was not written. */
export class ValueTooLargeError extends Error {
  constructor(
    /** The value's size, in bytes. */
    readonly bytes: number,
    /** The largest value the server takes (its `max_payload` less HEADER_ROOM), in bytes. */
    readonly limit: number,
  ) {
    super(`its state is ${bytes} bytes, over the ${limit + HEADER_ROOM} bytes the server takes in a message (max_payload)`);
    this.name = 'ValueTooLargeError';
  }
}

/**
 * A session's state was not written because the sessions bucket is full (`--sessions-max-bytes`): the
 * server refused it, or it is a new session and the bucket holds NEW_SESSIONS_SHARE of its bound already
 * (the rest is kept for the sessions it holds: bucket-room.ts).
 */
export class BucketFullError extends Error {
  constructor(
    /** `refused`: the server refused the write; `reserved`: a new session, past the share kept for new ones. */
    readonly why: 'refused' | 'reserved',
    /** The bucket's bound in bytes, when known. */
    readonly maxBytes: number | undefined,
  ) {
    const bound = maxBytes === undefined || maxBytes <= 0 ? '' : ` (${maxBytes} bytes, --sessions-max-bytes)`;
    super(why === 'refused'
      ? `the sessions bucket is full${bound}`
      : `the sessions bucket is ${Math.round(NEW_SESSIONS_SHARE * 100)}% full${bound}, the rest kept for the sessions it holds`);
    this.name = 'BucketFullError';
  }
}

/** The share of the bound the fill must fall below before a full bucket is said again (sessions-full). */
export const DRAINED_SHARE = 3 / 4;

/** Reads, writes and forgets sessions in the bucket. */
export class SessionStore {
  /**
   * @param maxPayload The server's largest message in bytes (`max_payload` of the connection's server info,
   * read at each write: a reconnection may reach a server with another).
   */
  /**
   * Whether the bucket refused a write and has not drained since: a refusal after a new session was stored
   * with the fill below DRAINED_SHARE of the bound is said again. Not reset by any new session stored: near
   * the mark, each read of the fill may leave room for one more, and a flood would say the fill each time.
   */
  private refusing = false;

  /**
   * @param onFull hears the first write refused for a full bucket since it drained (once each time it fills)
   * @param workers the live workers sharing the bucket (this one included), for the room's part of each
   * @param room whether a new session may be stored (bucket-room.ts; by default read from the bucket's status)
   */
  constructor(
    private readonly kv: KV,
    private readonly maxPayload: () => number = () => 1024 * 1024,
    private readonly onFull: (e: BucketFullError) => void = () => undefined,
    workers: () => number = () => 1,
    private readonly room: BucketRoom = new BucketRoom(
      async () => {
        const st = await kv.status();
        return { bytes: st.size, maxBytes: st.max_bytes };
      },
      undefined,
      workers,
    ),
  ) {}

  /** The session's stored state and the key's revision. */
  async load(sessionId: string): Promise<LoadedSession> {
    const e = await this.kv.get(sessionKey(sessionId));
    if (e === null) return { stored: null, revision: 0 };
    if (e.operation !== 'PUT') return { stored: null, revision: e.revision };
    try {
      return { stored: decodeStored(e.value), revision: e.revision };
    } catch (err) {
      return { stored: null, revision: e.revision, problem: (err as Error).message };
    }
  }

  /**
   * Writes the session's state if the key is still at `revision` (0: absent or deleted). A key changed by
   * another writer (a worker that lost the partition without knowing it yet) is read again: if what it holds
   * goes as far in the stream as `s` or further, it stands (every stored state is the exact state at its
   * sequence, and a stored sequence never goes back); otherwise `s` is written over it. Resolves to the
   * key's revision and the stream sequence the stored state holds (when that sequence is past `s.lastSeq`,
   * the revision is another writer's: no base for the caller's next write). A value over the server's
   * message limit is not sent: rejects with a ValueTooLargeError; a write the full bucket refuses (or a new
   * session's, past the share kept for new ones) with a BucketFullError.
   */
  async save(sessionId: string, revision: number, s: StoredSession): Promise<{ revision: number; lastSeq: number }> {
    const key = sessionKey(sessionId);
    const value = encodeStored(s);
    const limit = this.maxPayload() - HEADER_ROOM;
    if (value.byteLength > limit) throw new ValueTooLargeError(value.byteLength, limit);
    const fresh = revision === 0;
    if (fresh && !(await this.room.forNew(value.byteLength))) throw this.full('reserved');
    let created = false;
    try {
      let at = revision;
      for (let attempt = 0; ; attempt++) {
        try {
          const written = at === 0 ? await this.kv.create(key, value) : await this.kv.update(key, value, at);
          if (at === 0) {
            created = true;
            if (this.refusing && this.drained()) this.refusing = false;
          }
          return { revision: written, lastSeq: s.lastSeq };
        } catch (e) {
          // the client refuses a message over the limit it was told (a server reached since may have another)
          if (/max_payload/i.test((e as Error).message)) throw new ValueTooLargeError(value.byteLength, limit);
          if (/maximum bytes exceeded/i.test((e as Error).message)) throw this.full('refused');
          const now = await this.load(sessionId);
          if (attempt >= 5 || now.revision === at) throw e;
          if (now.stored !== null && now.stored.lastSeq >= s.lastSeq) return { revision: now.revision, lastSeq: now.stored.lastSeq };
          at = now.revision;
        }
      }
    } finally {
      if (fresh) this.room.settled(value.byteLength, created);
    }
  }

  /** Whether the fill as last known is below DRAINED_SHARE of the bound (true when unknown or unbounded). */
  private drained(): boolean {
    const f = this.room.estimate();
    return f === null || f.maxBytes <= 0 || f.bytes < f.maxBytes * DRAINED_SHARE;
  }

  /** A BucketFullError, said to onFull when it is the first since the bucket drained. */
  private full(why: BucketFullError['why']): BucketFullError {
    const e = new BucketFullError(why, this.room.estimate()?.maxBytes);
    if (!this.refusing) {
      this.refusing = true;
      this.onFull(e);
    }
    return e;
  }

  /** Forgets an ended session's marker once no call of it can be delivered again (if nobody rewrote it). */
  async forget(sessionId: string, revision: number): Promise<void> {
    await this.kv.delete(sessionKey(sessionId), { previousSeq: revision });
  }
}
