/**
 * The MCP stdio framing: one JSON-RPC message per line, ended by `\n`. Splits a byte stream into lines,
 * each handed over with its own newline (so a line forwarded unchanged is the exact bytes that came in),
 * memory bounded by `maxLine`:
 *
 * ```
 *   bytes ──> [ line ... \n ]  ──onLine(bytes with \n)──> parsed (or forwarded as is)
 *             [ more than maxLine bytes without \n ] ──onRaw──> forwarded, never parsed, up to the next \n
 *             [ bytes without \n at the end of the stream ] ──onRaw──> forwarded as they came
 * ```
 */

/** Splits a byte stream into lines; lines longer than the cap are passed on in pieces, never held whole. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line that went over the cap: its bytes pass on raw until its newline. */
  private oversized = false;

  /**
   * @param maxLine bytes a line may have (newline included) to be handed over whole; longer ones go to `onRaw`
   * @param onLine a whole line, its newline included
   * @param onRaw bytes passed on without being read: pieces of an oversized line, or an unfinished last line
   */
  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onRaw: (bytes: Buffer) => void,
  ) {}

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (this.oversized) {
        this.onRaw(piece);
        if (nl >= 0) this.oversized = false;
      } else if (this.size + piece.length > this.maxLine) {
        this.oversized = nl < 0;
        this.onRaw(this.take(piece));
      } else if (nl >= 0) {
        this.onLine(this.take(piece));
      } else {
        this.parts.push(piece);
        this.size += piece.length;
      }
    }
  }

  /** The stream ended: an unfinished last line is passed on as it came. */
  end(): void {
    if (this.size > 0) this.onRaw(this.take(Buffer.alloc(0)));
    this.oversized = false;
  }

  /** What is held, followed by `piece`, as one buffer (no copy when nothing is held). */
  private take(piece: Buffer): Buffer {
    if (this.parts.length === 0) return piece;
    this.parts.push(piece);
    const out = Buffer.concat(this.parts, this.size + piece.length);
    this.parts = [];
    this.size = 0;
    return out;
  }
}
