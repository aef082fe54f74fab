/**
 * The text a call preview shows of args given as JSON text, read from the text itself: exactly
 * `collapsedText(JSON.parse(text), limit)` (preview-text.ts), without making the parsed value. A call read
 * from its record's bytes (JsonArgsText) is then never parsed for its preview: only the characters the
 * preview shows are decoded, and the rest of the text is skipped, but for the keys of the objects the
 * preview opens.
 *
 * ```
 *   text -> tokens, in order -> JSON.stringify's characters of each (strings decoded and escaped again,
 *           numbers as String(Number(token)), no white space between tokens) -> runs collapsed -> limit + 1
 * ```
 *
 * `JSON.parse` orders an object's keys otherwise than its text does when a key is an array index (those
 * come first, in increasing order) or is named twice (the first place, the last value): an object the
 * preview writes any of (its `{` included) that has such a key anywhere makes the answer null, and the
 * caller parses. An object the preview never reaches is not read.
 */
import { Collapser } from './preview-text.js';

const out = new Collapser();

/** Reads one JSON text (valid, as `JSON.parse` takes it) and writes its preview characters into `out`. */
class TextWalk {
  private p = 0;

  constructor(private readonly s: string) {}

  /** Skips JSON white space. */
  private ws(): void {
    const s = this.s;
    let p = this.p;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.p = p;
  }

  /** Writes the value at the position (or skips it once the preview is written); false: give up. */
  value(): boolean {
    this.ws();
    if (out.done) return this.skip();
    const s = this.s;
    const c = s.charCodeAt(this.p);
    switch (c) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case 0x22:
        this.string();
        return true;
      case 0x74:
        out.raw('true');
        this.p += 4;
        return true;
      case 0x66:
        out.raw('false');
        this.p += 5;
        return true;
      case 0x6e:
        out.raw('null');
        this.p += 4;
        return true;
      default: {
        const from = this.p;
        let p = from + 1;
        for (;;) {
          const d = s.charCodeAt(p);
          // digits, '+', '-', '.', 'e', 'E'
          if ((d >= 0x30 && d <= 0x39) || d === 0x2b || d === 0x2d || d === 0x2e || d === 0x65 || d === 0x45) p++;
          else break;
        }
        this.p = p;
        const v = Number(s.slice(from, p));
        out.raw(Number.isFinite(v) ? String(v) : 'null');
        return true;
      }
    }
  }

  private object(): boolean {
    const s = this.s;
    out.add(0x7b);
    this.p++;
    const keys = new Set<string>();
    let first = true;
    for (;;) {
      this.ws();
      if (s.charCodeAt(this.p) === 0x7d) break;
      if (s.charCodeAt(this.p) === 0x2c) {
        this.p++;
        this.ws();
      }
      const key = this.key();
      // JSON.parse puts such keys elsewhere than the text does (see the module comment)
      if (keys.has(key) || isArrayIndex(key)) return false;
      keys.add(key);
      this.ws();
      this.p++; // the ':'
      if (!out.done) {
        if (!first) out.add(0x2c);
        first = false;
        out.quoted(key);
        out.add(0x3a);
      }
      if (!this.value()) return false;
    }
    this.p++;
    out.add(0x7d);
    return true;
  }

  private array(): boolean {
    const s = this.s;
    out.add(0x5b);
    this.p++;
    let first = true;
    for (;;) {
      this.ws();
      if (s.charCodeAt(this.p) === 0x5d) break;
      if (s.charCodeAt(this.p) === 0x2c) {
        this.p++;
        this.ws();
      }
      if (out.done) {
        // the preview is written: the rest of the array is only skipped
        if (!this.skip()) return false;
        continue;
      }
      if (!first) out.add(0x2c);
      first = false;
      if (!this.value()) return false;
    }
    this.p++;
    out.add(0x5d);
    return true;
  }

  /** The code unit of the escape whose backslash is at the position; moves past it. */
  private escape(): number {
    const s = this.s;
    const e = s.charCodeAt(this.p + 1);
    this.p += 2;
    switch (e) {
      case 0x62:
        return 0x08;
      case 0x66:
        return 0x0c;
      case 0x6e:
        return 0x0a;
      case 0x72:
        return 0x0d;
      case 0x74:
        return 0x09;
      case 0x75: {
        const u = Number.parseInt(s.slice(this.p, this.p + 4), 16);
        this.p += 4;
        return u;
      }
      default:
        return e; // '"', '\\', '/'
    }
  }

  /** The string at the position (its opening quote), decoded whole: a key. */
  private key(): string {
    const s = this.s;
    const from = ++this.p;
    let p = from;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 0x22) {
        this.p = p + 1;
        return s.slice(from, p);
      }
      if (c === 0x5c) break;
      p++;
    }
    // an escape: decoded unit by unit
    let k = s.slice(from, p);
    this.p = p;
    for (;;) {
      const c = s.charCodeAt(this.p);
      if (c === 0x22) break;
      if (c === 0x5c) k += String.fromCharCode(this.escape());
      else {
        k += s[this.p];
        this.p++;
      }
    }
    this.p++;
    return k;
  }

  /** Writes the string at the position as JSON.stringify writes its value, as far as the preview reaches. */
  private string(): void {
    const s = this.s;
    out.add(0x22);
    this.p++;
    // a high surrogate waiting for the unit after it (a pair is written as it is, a lone one escaped)
    let high = -1;
    while (!out.done) {
      const c = s.charCodeAt(this.p);
      if (c === 0x22) break;
      let u: number;
      if (c === 0x5c) u = this.escape();
      else {
        u = c;
        this.p++;
      }
      if (high >= 0) {
        if (u >= 0xdc00 && u <= 0xdfff) {
          out.add(high);
          out.add(u);
          high = -1;
          continue;
        }
        out.unit(high);
        high = -1;
      }
      if (u >= 0xd800 && u <= 0xdbff) high = u;
      else out.unit(u);
    }
    if (high >= 0) out.unit(high);
    if (out.done) this.skipString();
    else this.p++;
    out.add(0x22);
  }

  /** Moves past the rest of a string (its closing quote included), from inside it. */
  private skipString(): void {
    const s = this.s;
    for (;;) {
      const q = s.indexOf('"', this.p);
      // an escaped quote has an odd run of backslashes before it
      let b = q - 1;
      while (s.charCodeAt(b) === 0x5c) b--;
      this.p = q + 1;
      if ((q - 1 - b) % 2 === 0) return;
    }
  }

  /**
   * Moves past the value at the position, unread: its objects' keys are not looked at (nothing of them
   * is shown). Always true.
   */
  private skip(): boolean {
    this.ws();
    const s = this.s;
    const c = s.charCodeAt(this.p);
    if (c === 0x22) {
      this.p++;
      this.skipString();
      return true;
    }
    if (c !== 0x7b && c !== 0x5b) {
      // a number or a literal: up to the next ',', ']', '}' or white space
      let p = this.p + 1;
      for (;;) {
        const d = s.charCodeAt(p);
        if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 || Number.isNaN(d)) break;
        p++;
      }
      this.p = p;
      return true;
    }
    let depth = 0;
    for (;;) {
      const d = s.charCodeAt(this.p++);
      if (d === 0x22) this.skipString();
      else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return true;
    }
  }
}

/** Whether a key is an array index as JS orders keys: "0", or digits without a leading 0, below 2^32 - 1. */
function isArrayIndex(k: string): boolean {
  const n = k.length;
  if (n === 0 || n > 10) return false;
  const c0 = k.charCodeAt(0);
  if (c0 < 0x30 || c0 > 0x39 || (c0 === 0x30 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return n < 10 || Number(k) < 4294967295;
}

/**
 * `collapsedText(JSON.parse(text), limit)`: the first `limit + 1` characters of the value's collapsed JSON
 * text, read from `text` (valid JSON, as JSON.parse takes it), or null where the parsed value's key order
 * is not the text's (see the module comment).
 */
export function collapsedJsonText(text: string, limit: number): string | null {
  out.start(limit + 1);
  return new TextWalk(text).value() ? out.text() : null;
}
