/**
 * hostile32: the room left in the sessions bucket for sessions it does not hold yet. The bucket is bounded
 * in bytes (`--sessions-max-bytes`, discard new), and a full bucket refuses every write, the rewrite of a
 * session it holds included (nats-server counts the new value before it drops the old one). So that a flood
 * of new sessions cannot take their stored state from the sessions already kept, a worker stores no new
 * session once the bucket holds NEW_SESSIONS_SHARE of its bound: the rest is room for the rewrites.
 *
 * ```
 *   0 ............................ 7/8 bound ........ bound
 *   |  new sessions and rewrites  |  rewrites only   | the server refuses (maximum bytes exceeded)
 * ```
 * The fill is read from the server at most every STATUS_EVERY_MS; the bytes this worker wrote since, and
 * those it is writing (held from the moment a value is allowed: hostile36, before, values allowed at once
 * all passed on the same count), are added to it, so a burst of new sessions between two reads does not
 * overrun the mark unseen. Each of the live workers takes at most its part of the room left below the mark
 * at its last read, and reads the fill again once that part is spent (before, each worker held the mark
 * for itself only, and two flooded with new sessions filled the bucket between their reads).
 */

/** The share of the bound up to which new sessions are stored. */
export const NEW_SESSIONS_SHARE = 7 / 8;

/** How often the bucket's fill is read from the server at most, in ms. */
export const STATUS_EVERY_MS = 1_000;

/** What the server says of the bucket: bytes held and its bound (-1 or 0: none). */
export interface BucketFill {
  readonly bytes: number;
  readonly maxBytes: number;
}

/** Whether a new session's state may go into the bucket (see the module's doc). */
export class BucketRoom {
  private fill: BucketFill | null = null;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  /** Bytes of new sessions this worker wrote that the fill in use may not hold (written after its read was sent). */
  private since = 0;
  /** Bytes of new sessions allowed by forNew and not settled yet (being written). */
  private pending = 0;

  /**
   * @param status reads the bucket's fill from the server
   * @param now the clock (ms; performance.now by default)
   * @param workers the live workers sharing the bucket (this one included)
   */
  constructor(
    private readonly status: () => Promise<BucketFill>,
    private readonly now: () => number = () => performance.now(),
    private readonly workers: () => number = () => 1,
  ) {}

  /**
   * Whether a new session's value of `bytes` may be written (true when the fill cannot be read: the server
   * then decides); when it may, its bytes are held against the room until settled(). This worker takes at
   * most its part (1 / live workers) of the room left below the mark at its last read, counting what it
   * wrote since and what it is writing; when that part is spent, the fill is read again (one read under way
   * at a time, shared) before the value is refused. So workers writing new sessions at once do not pass
   * the mark together, and the fill is read more often only as the bucket nears the mark.
   */
  async forNew(bytes: number): Promise<boolean> {
    if (this.now() - this.readAt >= STATUS_EVERY_MS) await this.read();
    if (!this.fits(bytes)) {
      await this.read();
      if (!this.fits(bytes)) return false;
    }
    this.pending += bytes;
    return true;
  }

  /** Whether `bytes` more are within this worker's part of the room left at the last read. */
  private fits(bytes: number): boolean {
    const f = this.fill;
    if (f === null || f.maxBytes <= 0) return true;
    return this.since + this.pending + bytes <= (f.maxBytes * NEW_SESSIONS_SHARE - f.bytes) / Math.max(1, this.workers());
  }

  /** A value allowed by forNew is settled: `written` (counted until a read sent after it), or not. */
  settled(bytes: number, written: boolean): void {
    this.pending -= bytes;
    if (written) this.since += bytes;
  }

  /** The fill as last read, with what this worker wrote since; null before a read. */
  estimate(): BucketFill | null {
    return this.fill === null ? null : { bytes: this.fill.bytes + this.since, maxBytes: this.fill.maxBytes };
  }

  private read(): Promise<void> {
    if (this.reading !== null) return this.reading;
    // what was written before the read is sent is in the fill it reads; what is written after may not be
    const before = this.since;
    this.reading = this.status()
      .then(
        (f) => {
          this.fill = f;
          this.since -= before;
        },
        () => undefined, // the server away: the last fill stands, the server refuses what does not fit
      )
      .finally(() => {
        this.readAt = this.now();
        this.reading = null;
      });
    return this.reading;
  }
}
