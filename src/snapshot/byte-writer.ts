/** A growable little-endian byte buffer for snapshots. */

/** Writes bytes in place for ByteWriter.inPlace. */
export interface InPlaceFiller {
  /**
   * Writes into u8[start, end) and returns how many bytes the whole of it takes: when that is more than
   * `end - start`, what did not fit was counted, not written (nothing past `end`), and the bytes are not whole.
   */
  fill(u8: Uint8Array, dv: DataView, start: number, end: number): number;
}

/** Writes numbers, strings and bytes one after another. */
export class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  /** The same bytes as a Buffer, for its offset-taking string writes. */
  private text: Buffer;
  /** Bytes written so far. */
  length = 0;

  /** A writer with room for `capacity` bytes before it first grows: in `reuse` when it is that large (its old bytes are written over). */
  constructor(capacity = 1024, reuse?: ArrayBuffer) {
    this.buf = reuse !== undefined && reuse.byteLength >= capacity ? new Uint8Array(reuse) : new Uint8Array(capacity);
    this.dv = new DataView(this.buf.buffer);
    this.text = Buffer.from(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.dv = new DataView(next.buffer);
    this.text = Buffer.from(next.buffer);
  }

  /** One byte. */
  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  /** An unsigned 32-bit integer. */
  u32(v: number): void {
    this.room(4);
    this.dv.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  /** A signed 32-bit integer. */
  i32(v: number): void {
    this.room(4);
    this.dv.setInt32(this.length, v | 0, true);
    this.length += 4;
  }

  /** A double (any number, NaN included). */
  f64(v: number): void {
    this.room(8);
    this.dv.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Overwrites the byte at `at` (a place written before). */
  patchU8(at: number, v: number): void {
    this.buf[at] = v;
  }

  /** Overwrites the u32 at `at` (a place written before, such as a length to fill in). */
  patchU32(at: number, v: number): void {
    this.dv.setUint32(at, v >>> 0, true);
  }

  /**
   * Lets `filler` write bytes in place after the last ones (it is handed the buffer, a view of it and the
   * free range [start, end)) and keeps the count it returns. When the count passes the buffer's end (the
   * bytes past it counted, not written), the buffer grows once to hold it and `filler` writes again: two
   * fills at most, but for a filler whose bytes grow between fills (each time the buffer then grows again).
   */
  inPlace(filler: InPlaceFiller): void {
    for (;;) {
      const n = filler.fill(this.buf, this.dv, this.length, this.buf.length);
      if (this.length + n <= this.buf.length) {
        this.length += n;
        return;
      }
      this.room(n);
    }
  }

  /** A boolean as one byte. */
  bool(v: boolean): void {
    this.u8(v ? 1 : 0);
  }

  /** Raw bytes preceded by their length. */
  bytes(b: Uint8Array): void {
    this.u32(b.length);
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** A typed array's bytes preceded by their length (read back into the same kind of array). */
  view(a: ArrayBufferView): void {
    this.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  /**
   * A string, exactly: UTF-8 when it is well-formed UTF-16, else its UTF-16 code units (so lone
   * surrogates survive); a byte says which, then the byte length.
   */
  str(s: string): void {
    const n = s.length;
    if (n <= 32) {
      // short strings: ASCII copied by hand (encodeInto costs more than the copy at this size)
      this.room(5 + n);
      let i = 0;
      const at = this.length + 5;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        this.buf[at + i] = c;
      }
      if (i === n) {
        this.buf[this.length] = 0;
        this.dv.setUint32(this.length + 1, n, true);
        this.length = at + n;
        return;
      }
    }
    if ((s as string & { isWellFormed(): boolean }).isWellFormed()) {
      this.room(5 + s.length * 3);
      this.buf[this.length++] = 0;
      const at = this.length;
      // Buffer#write takes an offset: no subarray view per string (room for 3 bytes a unit is ensured)
      const written = this.text.write(s, at + 4, 'utf8');
      this.dv.setUint32(at, written, true);
      this.length = at + 4 + written;
      return;
    }
    this.room(5 + s.length * 2);
    this.buf[this.length++] = 1;
    this.dv.setUint32(this.length, s.length * 2, true);
    this.length += 4;
    for (let i = 0; i < s.length; i++) {
      this.dv.setUint16(this.length, s.charCodeAt(i), true);
      this.length += 2;
    }
  }

  /** A string or undefined. */
  optStr(s: string | undefined): void {
    if (s === undefined) this.u8(0);
    else {
      this.u8(1);
      this.str(s);
    }
  }

  /**
   * The underlying buffer and how many of its bytes were written, without a copy (to transfer it to
   * another thread). The writer must not be used afterwards.
   */
  take(): { readonly buffer: ArrayBuffer; readonly length: number } {
    return { buffer: this.buf.buffer as ArrayBuffer, length: this.length };
  }

  /** The bytes written, as their own buffer. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
