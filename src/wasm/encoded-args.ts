/**
 * Args that arrive already in the module's value encoding (see `encode-value.ts`): a pool's calling thread
 * encodes a call's args once, straight into the batch it sends, and the worker copies those bytes into the
 * module's record instead of rebuilding the args as objects and walking them again. Only args the encoding
 * says exactly are sent this way (JSON data: null, booleans, numbers, well-formed strings, arrays, plain
 * objects), so the args object, needed only when a verdict shows the call or similar args compares it, is
 * decoded from the same bytes on first use and equals what the caller passed.
 */
import * as A from './generated/abi.js';

const UNDECODED: unique symbol = Symbol('undecoded');

/** A call's args as encoded bytes, with the JSON data they stand for decoded on first use. */
export class EncodedArgs {
  private decoded: unknown = UNDECODED;
  readonly #brand = true;

  /** `bytes`: one value in the module's encoding, of JSON data only (the caller's own copy). */
  constructor(readonly bytes: Uint8Array) {}

  /**
   * Whether `v` is EncodedArgs. Unlike `instanceof`, it runs no code of the value's (a Proxy's
   * getPrototypeOf trap may throw, or lie).
   */
  static is(v: unknown): v is EncodedArgs {
    return typeof v === 'object' && v !== null && #brand in v;
  }

  /** The args as JSON data (decoded once). */
  value(): unknown {
    if (this.decoded === UNDECODED) this.decoded = decodeJsonData(this.bytes);
    return this.decoded;
  }
}

/** Decodes one value of JSON data from the module's encoding; throws on any other tag or a short buffer. */
export function decodeJsonData(bytes: Uint8Array): unknown {
  const r = new EncodingReader(bytes);
  const v = r.value();
  if (r.at !== bytes.length) throw new RangeError('loopwatch: encoded args have bytes left over');
  return v;
}

class EncodingReader {
  at = 0;
  private readonly dv: DataView;
  private readonly text: Buffer;

  constructor(private readonly bytes: Uint8Array) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private take(n: number): number {
    if (this.at + n > this.bytes.length) throw new RangeError('loopwatch: encoded args end too early');
    const p = this.at;
    this.at += n;
    return p;
  }

  private u32(): number {
    return this.dv.getUint32(this.take(4), true);
  }

  private str(): string {
    const n = this.u32();
    const p = this.take(n);
    return this.text.toString('utf8', p, p + n);
  }

  value(): unknown {
    const tag = this.bytes[this.take(1)];
    switch (tag) {
      case A.T_NULL:
        return null;
      case A.T_FALSE:
        return false;
      case A.T_TRUE:
        return true;
      case A.T_NUMBER:
        return this.dv.getFloat64(this.take(8), true);
      case A.T_STRING:
        return this.str();
      case A.T_ARRAY: {
        const n = this.u32();
        if (n > this.bytes.length) throw new RangeError('loopwatch: encoded args are corrupt (array length)');
        const a: unknown[] = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = this.value();
        return a;
      }
      case A.T_OBJECT: {
        const n = this.u32();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.str();
          const x = this.value();
          if (k === '__proto__') Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
          else o[k] = x;
        }
        return o;
      }
      default:
        throw new RangeError(`loopwatch: encoded args hold a value that is not JSON data (tag ${String(tag)})`);
    }
  }
}
