/**
 * One destination of the MCP proxy (the server's stdin, or the client's stdout) and the two kinds of
 * bytes written to it: the lines of the stream it forwards (passed on as they came, possibly in pieces:
 * a line over the cap streams through raw) and messages of the proxy's own (its answers to calls it did
 * not forward, its elicitation requests), each a whole line. An own message never lands inside a
 * forwarded line: while the forwarded stream is in the middle of a line, own messages wait and go out
 * after its newline.
 *
 * ```
 *  forwarded ──"{...big line, piece 1"──────────────"piece 2 ...}\n"──> destination
 *  own       ──────────────{refusal}\n──(held)──────────────────────────> after the \n
 * ```
 * Before, a refusal written while a server streamed a line over `--max-line-bytes` was spliced into that
 * line: the client could read neither (its call never answered). A stream that ends in the middle of a
 * line can never finish it: own messages then start on a line of their own.
 *
 * Backpressure: while the destination cannot take more, every source feeding it is paused; while own
 * messages held pass OWN_HELD_BYTES, the sources that make them are (not the forwarded stream, whose
 * newline frees them).
 */

/** Own messages held (waiting for a forwarded line's end) before the sources making them are paused. */
export const OWN_HELD_BYTES = 1 << 20;

/** The sources of an outlet: those forwarded into it, and those whose messages make the proxy's own. */
export interface OutletSources {
  readonly forwarded: NodeJS.ReadableStream;
  readonly own: readonly NodeJS.ReadableStream[];
}

/** A destination stream: forwarded bytes, own messages kept out of forwarded lines, sources paused while it is full. */
export class Outlet {
  private blocked = false;
  closed = false;
  /** The last forwarded bytes did not end a line. */
  private midLine = false;
  /** The forwarded stream ended (a line it left unfinished never ends). */
  private forwardedEnded = false;
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Told when the destination fills (true: its sources paused) and when it drains (false). */
  onBlockChange: (blocked: boolean) => void = () => undefined;

  /**
   * @param isBlocked whether a source is held back by any outlet (it is resumed only when none holds it)
   * @param onClosed the destination failed (its reader went away)
   */
  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly sources: OutletSources,
    private readonly isBlocked: (source: NodeJS.ReadableStream) => boolean,
    onClosed: () => void,
  ) {
    stream.on('error', () => {
      this.closed = true;
      onClosed();
    });
    stream.on('drain', () => {
      this.blocked = false;
      this.onBlockChange(false);
      this.resumeSources();
    });
  }

  /** Whether `source` must stay paused for this outlet. */
  holds(source: NodeJS.ReadableStream): boolean {
    if (this.blocked && (source === this.sources.forwarded || this.sources.own.includes(source))) return true;
    return this.heldBytes > OWN_HELD_BYTES && this.sources.own.includes(source);
  }

  /** Forwarded bytes (a whole line, or a piece of one); own messages held behind a line go out after its end. */
  forward(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.put(bytes);
    this.midLine = bytes[bytes.length - 1] !== 0x0a;
    if (!this.midLine && this.held.length > 0) this.release();
  }

  /** A message of the proxy's own, one whole line: now, or after the forwarded line under way. */
  own(line: Buffer): void {
    if (!this.midLine) return this.put(line);
    if (this.forwardedEnded) {
      this.put(Buffer.from('\n')); // the forwarded stream ended mid-line: the line is over
      this.midLine = false;
      return this.put(line);
    }
    this.held.push(line);
    this.heldBytes += line.length;
    if (this.heldBytes > OWN_HELD_BYTES) for (const s of this.sources.own) s.pause();
  }

  /** The forwarded stream ended: own messages held behind its unfinished line start a line of their own. */
  forwardedEnd(): void {
    this.forwardedEnded = true;
    if (this.held.length === 0) return;
    this.put(Buffer.from('\n'));
    this.midLine = false;
    this.release();
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const line of held) this.put(line);
    this.resumeSources();
  }

  private put(bytes: Buffer): void {
    if (this.closed) return;
    if (!this.stream.write(bytes) && !this.blocked) {
      this.blocked = true;
      this.sources.forwarded.pause();
      for (const s of this.sources.own) s.pause();
      this.onBlockChange(true);
    }
  }

  private resumeSources(): void {
    for (const s of [this.sources.forwarded, ...this.sources.own]) if (!this.isBlocked(s)) s.resume();
  }
}
