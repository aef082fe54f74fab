/**
 * A string still in the bytes it was read from: a JSON string literal (quotes included, ASCII only, escapes
 * checked), as `src/formats/event-line.ts` finds a result in an events-format line. The module takes the
 * bytes as they are and decodes them where they land (`assembly/json-unescape.ts`), so a quiet call's result
 * never becomes a JavaScript string; anything else that needs the text asks for {@link value}, made once.
 */
declare global {
  interface Buffer {
    /** Node's own latin1 decoder (what `toString('latin1', start, end)` calls, without its argument checks). */
    latin1Slice(start: number, end: number): string;
  }
}

const UNDECODED: unique symbol = Symbol('undecoded');

/** A JSON string literal's bytes, with the string they stand for made on first use. */
export class RawJsonString {
  private decoded: string | typeof UNDECODED = UNDECODED;
  readonly #brand = true;

  /**
   * `literal`: the literal's bytes, quotes included, every byte ASCII and every escape valid (the caller
   * checked); `escaped`: whether it holds a backslash.
   */
  constructor(
    private readonly bytes: Uint8Array,
    readonly escaped: boolean,
  ) {}

  /**
   * The literal's bytes, quotes included. A pool's worker reads a batch's results as views of the batch's
   * buffer, which goes back to the calling thread after the batch (nothing keeps a call's result past its
   * check); should something read one later, its view is detached (empty), and this throws rather than
   * give a wrong string.
   */
  get literal(): Uint8Array {
    const b = this.bytes;
    if (b.length < 2) throw new Error('loopwatch: a result was read after its batch went back to the calling thread (its bytes are gone)');
    return b;
  }

  /** Whether `v` is a RawJsonString (without running any code of the value's, unlike `instanceof`). */
  static is(v: unknown): v is RawJsonString {
    return typeof v === 'object' && v !== null && #brand in v;
  }

  /** The bytes between the quotes. */
  get content(): Uint8Array {
    return this.literal.subarray(1, this.literal.length - 1);
  }

  /** The string (what `JSON.parse` makes of the literal). */
  value(): string {
    if (this.decoded === UNDECODED) {
      const b = this.literal;
      const text = Buffer.from(b.buffer, b.byteOffset, b.byteLength).latin1Slice(this.escaped ? 0 : 1, this.escaped ? b.length : b.length - 1);
      this.decoded = this.escaped ? (JSON.parse(text) as string) : text;
    }
    return this.decoded;
  }
}

/** `e` with a RawJsonString result made into its string (`e` itself when it has none). */
export function withPlainResult<E extends { readonly result?: unknown }>(e: E): E {
  return RawJsonString.is(e.result) ? { ...e, result: e.result.value() } : e;
}
