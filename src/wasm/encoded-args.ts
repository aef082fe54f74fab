/**
 * Args that arrive already in the module's value encoding (see `encode-value.ts`): a pool's calling thread
 * encodes a call's args once, straight into the batch it sends, and the worker copies those bytes into the
 * module's record instead of rebuilding the args as objects and walking them again. Only args the encoding
 * says exactly are sent this way (JSON data: null, booleans, numbers, well-formed strings, arrays, plain
 * objects), so the args object, needed only when a verdict shows the call or similar args compares it, is
 * decoded from the same bytes on first use and equals what the caller passed.
 */
import * as A from './generated/abi.js';
import { ArgsInBytes } from '../fingerprint/json-args-text.js';

const UNDECODED: unique symbol = Symbol('undecoded');

/** A call's args as encoded bytes, with the JSON data they stand for decoded on first use. */
export class EncodedArgs extends ArgsInBytes {
  private decoded: unknown = UNDECODED;
  /** The reader member() walks the bytes with, made on its first use (the facts ask a call a few members). */
  private reader: EncodingReader | null = null;
  readonly #brand = true;

  /** `bytes`: one value in the module's encoding, of JSON data only (the caller's own copy). */
  constructor(readonly bytes: Uint8Array) {
    super();
  }

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

  /** Whether the args are an object (the encoding's first tag). */
  get isObject(): boolean {
    return this.bytes[0] === A.T_OBJECT;
  }

  /**
   * What `value()[name]` gives: read from the encoding when the args were not decoded yet, the other
   * members' bytes skipped (the outcome facts read a few members of a call's args: a pool's worker decoded
   * every call's whole args for them). Args that are not an object, or a name Object.prototype has or one not
   * ASCII, ask the decoded value.
   */
  member(name: string): unknown {
    if (this.decoded !== UNDECODED || !this.isObject || name in OBJECT_PROTO || !ASCII.test(name)) return (this.value() as Record<string, unknown> | null)?.[name];
    const r = (this.reader ??= new EncodingReader(this.bytes));
    r.at = 0;
    return r.member(name);
  }
}

const OBJECT_PROTO = Object.prototype;
const ASCII = /^[\x00-\x7f]*$/;

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

  /**
   * `value()[name]` of the object at the start (ASCII `name`, not one of Object.prototype's): its last member
   * so named (the decoded object's, whose later members overwrite earlier ones), decoded alone; undefined when
   * there is none or the value is not an object.
   */
  member(name: string): unknown {
    if (this.bytes[this.take(1)] !== A.T_OBJECT) return undefined;
    const n = this.u32();
    let found = -1;
    for (let i = 0; i < n; i++) {
      const k = this.u32();
      const p = this.take(k);
      const at = this.at;
      this.skip();
      if (k === name.length && this.spells(p, name)) found = at;
    }
    if (found < 0) return undefined;
    this.at = found;
    return this.value();
  }

  /** Whether the bytes at `p` are ASCII `name`'s. */
  private spells(p: number, name: string): boolean {
    for (let i = 0; i < name.length; i++) if (this.bytes[p + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /** Moves past one value without making it (as value() reads it, and refuses what it refuses). */
  private skip(): void {
    const tag = this.bytes[this.take(1)];
    switch (tag) {
      case A.T_NULL:
      case A.T_FALSE:
      case A.T_TRUE:
        return;
      case A.T_NUMBER:
        this.take(8);
        return;
      case A.T_STRING:
        this.take(this.u32());
        return;
      case A.T_ARRAY: {
        const n = this.u32();
        if (n > this.bytes.length) throw new RangeError('loopwatch: encoded args are corrupt (array length)');
        for (let i = 0; i < n; i++) this.skip();
        return;
      }
      case A.T_OBJECT: {
        const n = this.u32();
        for (let i = 0; i < n; i++) {
          this.take(this.u32());
          this.skip();
        }
        return;
      }
      default:
        throw new RangeError(`loopwatch: encoded args hold a value that is not JSON data (tag ${String(tag)})`);
    }
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
