/** Reads what a ByteWriter wrote; any read past the end is a SnapshotError, never a wrong value. */
import { SnapshotError } from '../errors.js';

/** Reads numbers, strings and bytes in the order they were written. */
export class ByteReader {
  private readonly dv: DataView;
  /** The same bytes as a Buffer, for decoding strings. */
  private readonly text: Buffer;
  private at: number;

  constructor(
    private readonly buf: Uint8Array,
    from = 0,
    private readonly end = buf.length,
  ) {
    this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    this.at = from;
  }

  private take(n: number): number {
    if (!(n >= 0) || this.at + n > this.end) throw new SnapshotError('loopwatch: the snapshot is corrupt (it ends too early)');
    const p = this.at;
    this.at += n;
    return p;
  }

  /** One byte. */
  u8(): number {
    return this.buf[this.take(1)] as number;
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    return this.dv.getUint32(this.take(4), true);
  }

  /** A signed 32-bit integer. */
  i32(): number {
    return this.dv.getInt32(this.take(4), true);
  }

  /** A double. */
  f64(): number {
    return this.dv.getFloat64(this.take(8), true);
  }

  /** A boolean. */
  bool(): boolean {
    const b = this.u8();
    if (b > 1) throw new SnapshotError('loopwatch: the snapshot is corrupt (a flag is neither 0 nor 1)');
    return b === 1;
  }

  /**
   * Length-prefixed bytes as a view of the buffer read (no copy): valid only while that buffer is, so
   * never for what outlives the read when the buffer is reused or transferred (use {@link bytes}).
   */
  view(): Uint8Array {
    const n = this.u32();
    const p = this.take(n);
    return this.buf.subarray(p, p + n);
  }

  /**
   * Length-prefixed bytes as a latin1 string, one char a byte (a copy on V8's heap, with no ArrayBuffer of
   * its own: a pool worker's args, wasm/encoded-args.ts).
   */
  latin1(): string {
    const n = this.u32();
    const p = this.take(n);
    return this.text.latin1Slice(p, p + n);
  }

  /** Length-prefixed bytes (a copy). */
  bytes(): Uint8Array {
    const n = this.u32();
    const p = this.take(n);
    return this.buf.slice(p, p + n);
  }

  /** Length-prefixed bytes into a typed array of `count` elements of `width` bytes each. */
  into<T extends Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array>(target: T): T {
    const n = this.u32();
    if (n !== target.byteLength) throw new SnapshotError(`loopwatch: the snapshot is corrupt (an array of ${n} bytes where ${target.byteLength} belong)`);
    const p = this.take(n);
    new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(this.buf.subarray(p, p + n));
    return target;
  }

  /** A string as ByteWriter.str wrote it (UTF-8, or UTF-16 code units). */
  str(): string {
    const form = this.u8();
    const n = this.u32();
    const p = this.take(n);
    // the writer's UTF-8 is always well-formed, so Buffer's decoder (no view to allocate, ~40% cheaper than
    // TextDecoder or a byte loop for the short keys most strings are) reads exactly what was written; it
    // keeps a leading U+FEFF, as TextDecoder with ignoreBOM does
    if (form === 0) return this.text.toString('utf8', p, p + n);
    if (form !== 1 || n % 2 !== 0) throw new SnapshotError('loopwatch: the snapshot is corrupt (a string of unknown form)');
    let s = '';
    for (let i = 0; i < n; i += 2) s += String.fromCharCode(this.dv.getUint16(p + i, true));
    return s;
  }

  /** A string or undefined. */
  optStr(): string | undefined {
    return this.bool() ? this.str() : undefined;
  }

  /**
   * A count of items that take at least `minBytes` each, refused when the bytes left could not hold them:
   * corrupt counts cannot make huge allocations, and any count a writer wrote is read back.
   */
  items(minBytes: number, what: string): number {
    const n = this.u32();
    if (n * minBytes > this.end - this.at) throw new SnapshotError(`loopwatch: the snapshot is corrupt (${n} ${what} in ${this.end - this.at} bytes)`);
    return n;
  }

  /** A count that must not exceed `max` (so corrupt lengths cannot make huge allocations). */
  count(max: number, what: string): number {
    const n = this.u32();
    if (n > max) throw new SnapshotError(`loopwatch: the snapshot is corrupt (${n} ${what}, at most ${max} possible)`);
    return n;
  }

  /** Whether bytes are left to read. */
  more(): boolean {
    return this.at < this.end;
  }

  /** Fails unless every byte was read. */
  done(): void {
    if (this.at !== this.end) throw new SnapshotError(`loopwatch: the snapshot is corrupt (${this.end - this.at} bytes left over)`);
  }
}
