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
 * The fill is read from the server at most every STATUS_EVERY_MS; the bytes this worker wrote since are
 * added to it, so a burst of new sessions between two reads does not overrun the mark unseen.
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
  private since = 0;

  /**
   * @param status reads the bucket's fill from the server
   * @param now the clock (ms; performance.now by default)
   */
  constructor(
    private readonly status: () => Promise<BucketFill>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether a new session's value of `bytes` may be written (true when the fill cannot be read: the server then decides). */
  async forNew(bytes: number): Promise<boolean> {
    if (this.now() - this.readAt >= STATUS_EVERY_MS) await this.read();
    const f = this.fill;
    if (f === null || f.maxBytes <= 0) return true;
    return f.bytes + this.since + bytes <= f.maxBytes * NEW_SESSIONS_SHARE;
  }

  /** Notes a value of `bytes` written since the last read. */
  wrote(bytes: number): void {
    this.since += bytes;
  }

  /** The fill as last read, with what this worker wrote since; null before a read. */
  estimate(): BucketFill | null {
    return this.fill === null ? null : { bytes: this.fill.bytes + this.since, maxBytes: this.fill.maxBytes };
  }

  private read(): Promise<void> {
    this.reading ??= this.status()
      .then(
        (f) => {
          this.fill = f;
          this.since = 0;
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
