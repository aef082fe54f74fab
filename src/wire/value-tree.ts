/**
 * JSON data as a tree of tagged values, for the trip to a worker thread: null, booleans, finite numbers
 * other than -0, strings (copied as bytes, never escaped), plain arrays without holes and plain objects
 * with their own enumerable properties. writeTree also answers, writing nothing, whether a value is such
 * data (what portable-values.ts checks before it tries a structured clone).
 */
import type { ByteReader } from '../snapshot/byte-reader.js';
import type { ByteWriter } from '../snapshot/byte-writer.js';

/** Tags of a JSON-data tree. */
const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_NUMBER = 3;
const T_STRING = 4;
const T_ARRAY = 5;
const T_OBJECT = 6;

const hasOwn = Object.prototype.hasOwnProperty;

/** Nesting beyond which a value is sent by structured clone rather than as a tree. */
const MAX_TREE_DEPTH = 64;

/**
 * Writes `v` as a tree of JSON data (null, booleans, finite numbers other than -0, strings, plain arrays
 * without holes, plain objects and their own enumerable properties) and returns true; returns false, having written
 * some bytes the caller rolls back, at the first value that is not such data. One pass over the value:
 * strings are copied as bytes, not escaped as JSON.stringify would (an 8 KB file body costs ~0.8 µs here,
 * ~15 µs through JSON.stringify). With no writer, only says whether `v` is such data.
 */
export function writeTree(w: ByteWriter | null, v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
      w?.u8(T_STRING);
      w?.str(v);
      return true;
    case 'boolean':
      w?.u8(v ? T_TRUE : T_FALSE);
      return true;
    case 'number':
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      w?.u8(T_NUMBER);
      w?.f64(v);
      return true;
    case 'object': {
      if (v === null) {
        w?.u8(T_NULL);
        return true;
      }
      if (depth >= MAX_TREE_DEPTH) return false;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype) return false;
        w?.u8(T_ARRAY);
        w?.u32(v.length);
        for (let i = 0; i < v.length; i++) if (!(i in v) || !writeTree(w, v[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
      // own enumerable keys, in Object.keys order, without the key array (for-in walks the shape's enum cache)
      w?.u8(T_OBJECT);
      const countAt = w === null ? 0 : w.length;
      w?.u32(0);
      let n = 0;
      for (const k in v) {
        if (!hasOwn.call(v, k)) continue;
        w?.str(k);
        if (!writeTree(w, (v as Record<string, unknown>)[k], depth + 1)) return false;
        n++;
      }
      w?.patchU32(countAt, n);
      return true;
    }
    default:
      return false;
  }
}

/** Reads back a tree writeTree wrote; a tag it does not know means the batch is corrupt (throws). */
export function readTree(r: ByteReader): unknown {
  const tag = r.u8();
  switch (tag) {
    case T_NULL:
      return null;
    case T_FALSE:
      return false;
    case T_TRUE:
      return true;
    case T_NUMBER:
      return r.f64();
    case T_STRING:
      return r.str();
    case T_ARRAY: {
      const a: unknown[] = new Array<unknown>(r.items(1, 'array elements'));
      for (let i = 0; i < a.length; i++) a[i] = readTree(r);
      return a;
    }
    case T_OBJECT: {
      const n = r.items(6, 'object members');
      const o: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const k = r.str();
        const x = readTree(r);
        if (k === '__proto__') Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
        else o[k] = x;
      }
      return o;
    }
    default:
      throw new Error(`loopwatch: a packed batch is corrupt (tree tag ${tag})`);
  }
}
