/**
 * The text a call preview shows, written straight from the value: its JSON text (or, for a string, the
 * string itself) with every run of white space (`\s`) collapsed to one space, cut at `limit` characters
 * plus one (so the caller knows whether there is more). Nothing past that is visited: an 8 KB file body
 * costs what its first characters cost, and a cycle beyond the shown part never stops the preview.
 *
 * Exact for JSON data (null, booleans, numbers, strings, BigInts as their digits in quotes, plain arrays,
 * plain objects and objects without a prototype): the characters are those of
 * `JSON.stringify(value, bigintsAsStrings)`, escapes included (`\"`, `\n`, `\u0001`, lone surrogates as
 * `\ud800`). Anything else met in the shown part (a toJSON method, a Map, a Date, a class instance, a
 * cycle, a getter that throws) makes the answer null: JSON.stringify decides what that value shows.
 *
 * ```
 *   value -> JSON characters (escaped) -> white space runs collapsed -> the first limit + 1
 * ```
 */

const hasOwn = Object.prototype.hasOwnProperty;
const OBJECT_PROTO = Object.prototype;
const HEX = '0123456789abcdef';

/** Whether code unit c is white space as `\s` means it. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Collects collapsed characters up to a limit (reused: previews are built one at a time). Also written by
 * json-text-preview.ts, which reads JSON text rather than values.
 */
export class Collapser {
  private readonly codes: number[] = [];
  private n = 0;
  private space = false;
  private max = 0;
  /** `max` characters are written: the rest is not visited (each loop stops, every put answers true). */
  done = false;
  /** Objects and arrays being written (to refuse cycles): path[0, depth). */
  private readonly path: object[] = [];
  private depth = 0;

  /** Starts a new text of at most `max` characters. */
  start(max: number): void {
    this.n = 0;
    this.done = false;
    this.space = false;
    this.max = max;
    this.depth = 0;
  }

  /** Adds one code unit (collapsing white space runs); nothing once `max` are written. */
  add(c: number): void {
    if (this.done) return;
    if (isSpace(c)) {
      if (this.space) return;
      this.space = true;
      c = 0x20;
    } else this.space = false;
    this.codes[this.n++] = c;
    if (this.n >= this.max) this.done = true;
  }

  /** Adds a string's code units as they are. */
  raw(s: string): void {
    for (let i = 0; i < s.length && !this.done; i++) this.add(s.charCodeAt(i));
  }

  /** Adds a string as JSON.stringify writes it: quoted and escaped. */
  quoted(s: string): void {
    this.add(0x22);
    for (let i = 0; i < s.length && !this.done; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) {
        this.add(c);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.add(c);
          this.add(d);
          i++;
          continue;
        }
      }
      this.escaped(c);
    }
    this.add(0x22);
  }

  /**
   * Adds one code unit of a string as JSON.stringify writes it, inside its quotes, when it is not part of a
   * surrogate pair (the caller writes a pair's two units with add()): plain, or escaped.
   */
  unit(c: number): void {
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) this.add(c);
    else this.escaped(c);
  }

  /** Adds the escape JSON.stringify writes for `"`, `\\`, a control character or a lone surrogate. */
  private escaped(c: number): void {
    this.add(0x5c);
    switch (c) {
      case 0x22:
      case 0x5c:
        this.add(c);
        break;
      case 0x08:
        this.add(0x62);
        break;
      case 0x0c:
        this.add(0x66);
        break;
      case 0x0a:
        this.add(0x6e);
        break;
      case 0x0d:
        this.add(0x72);
        break;
      case 0x09:
        this.add(0x74);
        break;
      default:
        // other control characters and lone surrogates: \u and four lower-case hex digits
        this.add(0x75);
        for (let k = 12; k >= 0; k -= 4) this.add(HEX.charCodeAt((c >> k) & 15));
    }
  }

  /** Writes `v`'s JSON text; false when it is not JSON data written exactly here. */
  put(v: unknown): boolean {
    if (this.done) return true;
    switch (typeof v) {
      case 'string':
        this.quoted(v);
        return true;
      case 'number':
        this.raw(Number.isFinite(v) ? String(v) : 'null');
        return true;
      case 'boolean':
        this.raw(v ? 'true' : 'false');
        return true;
      case 'bigint':
        this.quoted(v.toString());
        return true;
      case 'object':
        if (v === null) {
          this.raw('null');
          return true;
        }
        return this.putObject(v);
      default:
        return false;
    }
  }

  private putObject(v: object): boolean {
    for (let i = 0; i < this.depth; i++) if (this.path[i] === v) return false;
    const isArray = Array.isArray(v);
    const proto: unknown = Object.getPrototypeOf(v);
    if (isArray ? proto !== Array.prototype : proto !== OBJECT_PROTO && proto !== null) return false;
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    this.path[this.depth++] = v;
    if (isArray) {
      const a = v as readonly unknown[];
      this.add(0x5b);
      for (let i = 0; i < a.length && !this.done; i++) {
        if (i > 0) this.add(0x2c);
        const x = a[i];
        if (skipped(x)) this.raw('null');
        else if (!this.put(x)) return false;
      }
      this.add(0x5d);
    } else {
      this.add(0x7b);
      let first = true;
      for (const k in v) {
        if (this.done) break;
        if (!hasOwn.call(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (skipped(x)) continue;
        if (!first) this.add(0x2c);
        first = false;
        this.quoted(k);
        this.add(0x3a);
        if (!this.put(x)) return false;
      }
      this.add(0x7d);
    }
    this.path[--this.depth] = OBJECT_PROTO;
    return true;
  }

  /** Lets go of the objects a walk that stopped early left on its path. */
  release(): void {
    while (this.depth > 0) this.path[--this.depth] = OBJECT_PROTO;
  }

  /** The characters written. */
  text(): string {
    let s = '';
    for (let i = 0; i < this.n; i += 64) s += String.fromCharCode.apply(null, this.codes.slice(i, Math.min(this.n, i + 64)));
    return s;
  }
}

/** Whether a member or element is one JSON leaves out of objects (and writes as null in arrays). */
function skipped(v: unknown): boolean {
  const t = typeof v;
  return t === 'undefined' || t === 'function' || t === 'symbol';
}

/**
 * The first `limit + 1` characters of a value's collapsed JSON text (all of it when shorter): `asText`
 * strings are taken as they are, not as JSON. Null when the shown part holds something other than JSON
 * data (see the module comment).
 */
export function collapsedText(value: unknown, limit: number, asText = false): string | null {
  // a getter that shows another preview while this one is written gets a collapser of its own
  const out = busy ? new Collapser() : shared;
  const outer = busy;
  busy = true;
  try {
    out.start(limit + 1);
    try {
      if (asText) out.raw(value as string);
      else if (!out.put(value)) return null;
    } catch {
      return null; // a getter or Proxy trap threw: JSON.stringify says what that makes of it
    }
    return out.text();
  } finally {
    out.release();
    busy = outer;
  }
}

const shared = new Collapser();
let busy = false;
