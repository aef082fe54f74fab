/**
 * The first characters of a value's JSON text without writing the rest: what a call preview needs from
 * args that may hold an 8 KB file body (JSON.stringify would escape all of it to show 80 characters).
 *
 * Exact for JSON data (null, booleans, numbers, strings, BigInts as their digits in quotes, plain arrays
 * and plain objects): the answer's first `limit` characters are those of
 * `JSON.stringify(value, bigintsAsStrings)`. Anything else met on the way (a toJSON method, a Map, a
 * Date, a class instance, a cycle, a getter that throws) is left to JSON.stringify: the answer is null.
 * What lies past the shown part is not visited, so a cycle there does not make the value unshowable.
 */

const hasOwn = Object.prototype.hasOwnProperty;
const OBJECT_PROTO = Object.prototype;

/** A JSON text's prefix: `text` is the whole JSON text when `whole`, else at least `limit` characters of which only the first `limit` are exact. */
export interface JsonPrefix {
  readonly text: string;
  readonly whole: boolean;
}

class PrefixWriter {
  private readonly parts: string[] = [];
  /** Characters written. */
  n = 0;
  /** Something was left out or shortened for having reached the limit. */
  cut = false;
  /** Objects and arrays being written (to refuse cycles). */
  readonly path: object[] = [];

  constructor(readonly limit: number) {}

  /** Whether the limit is reached (from now on, whatever is left out makes the text cut). */
  get full(): boolean {
    return this.n >= this.limit;
  }

  add(s: string): void {
    this.parts.push(s);
    this.n += s.length;
  }

  text(): string {
    return this.parts.join('');
  }
}

/** Whether a member or element is one JSON leaves out of objects (and writes as null in arrays). */
function skipped(v: unknown): boolean {
  const t = typeof v;
  return t === 'undefined' || t === 'function' || t === 'symbol';
}

/** Writes `v`; false when it is not JSON data this writer knows exactly. */
function put(w: PrefixWriter, v: unknown): boolean {
  if (w.full) {
    w.cut = true;
    return true;
  }
  switch (typeof v) {
    case 'string': {
      // escaping never shortens: one more character than is still needed is enough for an exact prefix
      const room = w.limit - w.n + 1;
      if (v.length > room) {
        w.cut = true;
        w.add(JSON.stringify(v.slice(0, room)));
      } else w.add(JSON.stringify(v));
      return true;
    }
    case 'number':
    case 'boolean':
      w.add(JSON.stringify(v));
      return true;
    case 'bigint':
      w.add(JSON.stringify(v.toString()));
      return true;
    case 'object':
      if (v === null) {
        w.add('null');
        return true;
      }
      return putObject(w, v);
    default:
      return false;
  }
}

function putObject(w: PrefixWriter, v: object): boolean {
  if (w.path.includes(v)) return false;
  const isArray = Array.isArray(v);
  const proto: unknown = Object.getPrototypeOf(v);
  if (isArray ? proto !== Array.prototype : proto !== OBJECT_PROTO && proto !== null) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  w.path.push(v);
  try {
    if (isArray) {
      const a = v as readonly unknown[];
      w.add('[');
      for (let i = 0; i < a.length; i++) {
        if (w.full) {
          w.cut = true;
          break;
        }
        if (i > 0) w.add(',');
        const x = a[i];
        if (skipped(x)) w.add('null');
        else if (!put(w, x)) return false;
      }
      w.add(']');
      return true;
    }
    w.add('{');
    let first = true;
    for (const k in v) {
      if (w.full) {
        w.cut = true;
        break;
      }
      if (!hasOwn.call(v, k)) continue;
      const x = (v as Record<string, unknown>)[k];
      if (skipped(x)) continue;
      w.add(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      if (!put(w, x)) return false;
    }
    w.add('}');
    return true;
  } catch {
    // a getter threw: JSON.stringify says what that makes of the value
    return false;
  } finally {
    w.path.pop();
  }
}

/**
 * At least the first `limit` characters of `value`'s JSON text (see the module doc), or null when the
 * value is not JSON data this function writes exactly.
 */
export function jsonPrefix(value: unknown, limit: number): JsonPrefix | null {
  const w = new PrefixWriter(limit);
  if (!put(w, value)) return null;
  return { text: w.text(), whole: !w.cut };
}
