/**
 * Writes a JavaScript value into WebAssembly memory in the binary form `assembly/tree.ts` hashes: one walk
 * of the value, no intermediate strings or objects. It follows the canonical walk of
 * `src/fingerprint/canonical-hash.ts` rule for rule (toJSON, omitted members, ignored fields, Map and Set,
 * typed arrays, cycles, the depth cap, values that throw), so the module's fingerprint of the encoding is
 * the reference fingerprint of the value.
 *
 * ```
 *  null false true deep unsupported : tag                      number : tag f64
 *  string bigint-digits bytes       : tag u32-length bytes     cycle  : tag u32-distance
 *  array set : tag u32-count values      object : tag u32-count (u32-length key-bytes value)*
 *  map       : tag u32-count (key value)*
 * ```
 */
import * as A from './generated/abi.js';

/** Thrown when the encoding does not fit; the caller grows the area and encodes again. */
export class EncodeOverflow extends Error {
  constructor() {
    super('encode area too small');
  }
}

const encoder = new TextEncoder();

/** Writes values into a byte area of WebAssembly memory. */
export class ValueEncoder {
  private u8: Uint8Array = new Uint8Array(0);
  private dv: DataView = new DataView(new ArrayBuffer(0));
  private pos = 0;
  private end = 0;
  private ignore: ReadonlySet<string> | null = null;
  private maxDepth = 64;
  private readonly ancestors: object[] = [];

  /** Points the encoder at memory [start, end). */
  reset(u8: Uint8Array, dv: DataView, start: number, end: number): void {
    this.u8 = u8;
    this.dv = dv;
    this.pos = start;
    this.end = end;
  }

  /** Where the next byte goes. */
  get position(): number {
    return this.pos;
  }

  set position(p: number) {
    this.pos = p;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new EncodeOverflow();
  }

  /** Writes a u32 (little-endian) at the current position. */
  u32(v: number): void {
    this.need(4);
    this.dv.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  private tag(t: number): void {
    this.need(1);
    this.u8[this.pos++] = t;
  }

  /** Writes a string's UTF-8 bytes (lone surrogates as U+FFFD) preceded by their u32 length. */
  utf8(s: string): void {
    this.need(4 + s.length);
    const at = this.pos;
    let p = at + 4;
    const n = s.length;
    if (n <= 64) {
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        this.u8[p++] = c;
      }
      if (i < n) {
        p = at + 4;
        this.need(4 + n * 3);
        p += encoder.encodeInto(s, this.u8.subarray(p, this.end)).written;
      }
    } else {
      const r = encoder.encodeInto(s, this.u8.subarray(p, this.end));
      if (r.read < n) throw new EncodeOverflow();
      p += r.written;
    }
    this.dv.setUint32(at, p - at - 4, true);
    this.pos = p;
  }

  /** Writes raw bytes preceded by their u32 length. */
  bytes(b: Uint8Array): void {
    this.need(4 + b.length);
    this.dv.setUint32(this.pos, b.length, true);
    this.u8.set(b, this.pos + 4);
    this.pos += 4 + b.length;
  }

  /** Encodes a value with the given ignored fields and depth cap. */
  value(v: unknown, ignore: ReadonlySet<string> | null, maxDepth: number): void {
    this.ignore = ignore;
    this.maxDepth = maxDepth;
    this.ancestors.length = 0;
    this.walk(v, 0);
  }

  private walk(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string':
        this.tag(A.T_STRING);
        this.utf8(v);
        return;
      case 'number':
        this.tag(A.T_NUMBER);
        this.need(8);
        this.dv.setFloat64(this.pos, v, true);
        this.pos += 8;
        return;
      case 'boolean':
        this.tag(v ? A.T_TRUE : A.T_FALSE);
        return;
      case 'bigint': {
        const n = Number(v);
        if (Number.isFinite(n) && BigInt(n) === v) {
          this.walk(n, depth);
          return;
        }
        this.tag(A.T_BIGINT);
        this.utf8(v.toString());
        return;
      }
      case 'object':
        if (v === null) {
          this.tag(A.T_NULL);
          return;
        }
        this.object(v, depth);
        return;
      default:
        this.tag(A.T_NULL);
    }
  }

  private object(v: object, depth: number): void {
    const at = this.ancestors.lastIndexOf(v);
    if (at >= 0) {
      this.tag(A.T_CYCLE);
      this.u32(this.ancestors.length - at);
      return;
    }
    if (depth >= this.maxDepth) {
      this.tag(A.T_DEEP);
      return;
    }
    const start = this.pos;
    try {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const j: unknown = toJSON.call(v, '');
        if (j !== v) {
          this.walk(j, depth);
          return;
        }
      }
      if (ArrayBuffer.isView(v)) {
        this.tag(A.T_BYTES);
        this.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        return;
      }
      if (v instanceof ArrayBuffer) {
        this.tag(A.T_BYTES);
        this.bytes(new Uint8Array(v));
        return;
      }
      this.ancestors.push(v);
      try {
        if (Array.isArray(v)) {
          this.tag(A.T_ARRAY);
          this.u32(v.length);
          for (let i = 0; i < v.length; i++) {
            const el: unknown = v[i];
            const t = typeof el;
            if (t === 'undefined' || t === 'function' || t === 'symbol') this.tag(A.T_NULL);
            else this.walk(el, depth + 1);
          }
        } else if (v instanceof Map) {
          this.tag(A.T_MAP);
          this.u32(v.size);
          for (const [k, x] of v) {
            this.walk(k, depth + 1);
            this.walk(x, depth + 1);
          }
        } else if (v instanceof Set) {
          this.tag(A.T_SET);
          this.u32(v.size);
          for (const x of v) this.walk(x, depth + 1);
        } else {
          this.members(v as Record<string, unknown>, depth);
        }
      } finally {
        this.ancestors.pop();
      }
    } catch (e) {
      if (e instanceof EncodeOverflow) throw e;
      // a getter, proxy or toJSON that throws: the whole object is one "unsupported" marker
      this.pos = start;
      this.tag(A.T_UNSUPPORTED);
    }
  }

  private members(obj: Record<string, unknown>, depth: number): void {
    this.tag(A.T_OBJECT);
    const countAt = this.pos;
    this.u32(0);
    let n = 0;
    const keys = Object.keys(obj);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (this.ignore !== null && this.ignore.has(k)) continue;
      const x = obj[k];
      const t = typeof x;
      if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
      this.utf8(k);
      this.walk(x, depth + 1);
      n++;
    }
    this.dv.setUint32(countAt, n, true);
  }
}
