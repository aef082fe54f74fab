/**
 * What similar args keeps of a call's args: a bounded summary, as bytes, from which every comparison
 * similar args makes (`summary-similarity.ts`) gives what comparing the args themselves gave
 * (`args-similarity.ts`) on everything but the pathological args listed below. A session keeps its recent
 * calls' summaries instead of their args, so its memory no longer grows with their size.
 *
 * A summary is one node, written depth first (every number little-endian):
 *
 * ```
 *  NULL | FALSE | TRUE                  tag                     (null, undefined, functions, symbols: NULL)
 *  SMALL                                tag i8                  (an integer from -128 to 127, not -0)
 *  NUMBER                               tag f64                 (any other number; a BigInt a number says exactly: that number)
 *  OPAQUE                               tag u32 lo u32 hi       (any other value: its canonical fingerprint)
 *  STRING   (at most STRING_WHOLE units) tag u16 (length | wide << 15) units           (keys too, whatever their length)
 *  LONG     (longer strings)             tag u32 length u8 wide u32 prefix1 u32 prefix2 u32 suffix1 u32 suffix2
 *                                        u32 headRunEnd u32 midRunStart u32 midRunEnd u8 beforeTail,
 *                                        then the first and last STRING_KEPT units
 *  ARRAY                                tag u16 bytes u16 count node*
 *  OBJECT                               tag u16 bytes u16 count (key as a STRING node, node)*
 * ```
 *
 * Units are UTF-16 code units, one byte each when every unit kept is below 256 (`wide` 0), else two.
 * `bytes` counts a container's whole node, so a reader skips one without walking it. A summary is at most
 * SUMMARY_MAX_BYTES, so every length, size and count but a long string's fits in 15 bits. This is the
 * second form (snapshot format 9 on): the first (text/summary-v1.ts, which turns one into the other) gave
 * every key a u32 hash and every string, array and object u32 sizes, so a summary was larger than small
 * args (768 B for the RSS bench's 491 B args; 484 B in this form). Arrays and plain
 * objects are followed MAX_ARGS_DEPTH levels down (as similar args follows them); deeper ones, and every
 * value similar args compares by fingerprint (a Map, a Set, bytes, a value restored as its fingerprint, a
 * BigInt no number says), are OPAQUE.
 *
 * A long string keeps what its comparisons read: its length; the first and last STRING_KEPT units (the
 * edit-distance sample is within them); polynomial hashes (unit-hash.ts, two bases) of all but its last
 * STRING_KEPT units (`prefix`) and of all but its first (`suffix`), which a comparison extends by the units
 * kept to find where two strings stop agreeing even past the units kept (equality too: same length, same
 * prefix hash, same last units); and where its whole words lie around the units kept: `headRunEnd`, the
 * end of the word holding the last unit kept at the start (when that unit is a word character);
 * `midRunStart` and `midRunEnd`, the first whole word starting after the units kept at the start and
 * before those kept at the end (0xffffffff when none); `beforeTail`, whether the unit just before those kept at the end is a word
 * character. Whether the part where two strings differ holds a whole word (`replacesWholeWord`) is then
 * exact whenever that part begins or ends within the units kept, and their lengths differ by at most
 * STRING_KEPT.
 *
 * Where the summaries differ from the args, all pathological:
 * - two strings longer than STRING_WHOLE units that differ only between the units kept at their start and
 *   at their end, or whose lengths differ by more than STRING_KEPT units with the difference out of
 *   sight, or whose difference begins (ends) within d units of the end of the units kept at their start
 *   (the start of those kept at their end), d being how much their lengths differ: whether the change
 *   holds a whole word is not known, and it is taken to (they are another target: similarity 0);
 * - two different long strings whose hashes collide (strings built for it): they compare as equal;
 * - a container whose summary would pass SUMMARY_MAX_BYTES (thousands of keys or elements, many long
 *   strings) is OPAQUE, compared by fingerprint (equal or not), its siblings summarised as usual; when
 *   the budget cannot hold even that, its parent is OPAQUE, up to the whole args;
 * - long strings with lone surrogates (their hash reads them as U+FFFD), a getter or Proxy that throws
 *   (the whole container is OPAQUE, where the args were compared as far as they could be read), an object
 *   whose `toJSON` gives a Map or a Set (compared key by key, where the args' fingerprint said the Map's).
 */
import { hashValue } from '../fingerprint/canonical-hash.js';
import { PartsWork } from '../fingerprint/parts-work.js';
import { u64 } from '../fingerprint/u64.js';
import { MAX_ARGS_DEPTH, isPlainObject } from './args-similarity.js';
import { BASE_1, BASE_2, joinHash } from './unit-hash.js';
import { moduleHashes, moduleHashesAt, moduleStringHashes } from '../wasm/module-unit-hash.js';

/** Bytes a summary takes at most: args whose summary would be larger are kept as their fingerprint. */
export const SUMMARY_MAX_BYTES = 4096;
/** Units a long string keeps at its start, and as many at its end. */
export const STRING_KEPT = 256;
/** Strings of at most this many units are kept whole. */
export const STRING_WHOLE = 2 * STRING_KEPT;
/** `midRunStart` when no whole word starts between the units kept at a long string's start and end. */
export const NO_RUN = 0xffffffff;

/** Node tags. */
export const S_NULL = 1;
export const S_FALSE = 2;
export const S_TRUE = 3;
export const S_NUMBER = 4;
export const S_OPAQUE = 5;
export const S_STRING = 6;
export const S_LONG = 7;
export const S_ARRAY = 8;
export const S_OBJECT = 9;
export const S_SMALL = 10;

/** Bytes of a LONG node before its units. */
export const LONG_HEADER = 1 + 4 + 1 + 28 + 1;
/** Bytes of a STRING node before its units. */
export const STRING_HEADER = 3;
/** Bytes of an ARRAY or OBJECT node before its parts. */
export const CONTAINER_HEADER = 5;
/** The bit of a STRING node's u16 that says its units take two bytes. */
export const WIDE_BIT = 0x8000;

/** Whether long strings are hashed by the module when they can be (off only in tests: the answers are the same). */
let moduleHashing = true;

/**
 * Turns hashing long strings in the module off (`false`) or back on, to test that the summaries are the same.
 * @internal For tests.
 */
export function setModuleHashing(on: boolean): void {
  moduleHashing = on;
}

/** Thrown when a summary passes SUMMARY_MAX_BYTES (the args are then kept as their fingerprint). */
const FULL = new Error('summary full');

/** Whether code unit c is a word character (as `replacesWholeWord` reads words). */
export function isWordUnit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

/**
 * Builds summaries into a buffer it reuses: one per thread for `summarizeArgs`, and one for the summaries
 * made in the module encoder's walk (wasm/args-summary-mirror.ts), which stacks a batch's summaries from
 * `base` on.
 */
export class SummaryWriter {
  bytes = new Uint8Array(SUMMARY_MAX_BYTES + 64);
  dv = new DataView(this.bytes.buffer);
  /** Where the summary being written starts. */
  base = 0;
  at = 0;

  /** Starts a summary at `at`, the buffer grown (its bytes kept) to hold a whole one there. */
  begin(at: number): void {
    const need = at + SUMMARY_MAX_BYTES + 64;
    if (this.bytes.length < need) {
      const b = new Uint8Array(Math.max(need, 2 * this.bytes.length));
      b.set(this.bytes.subarray(0, at));
      this.bytes = b;
      this.dv = new DataView(b.buffer);
    }
    this.base = at;
    this.at = at;
  }

  room(n: number): number {
    const p = this.at;
    if (p + n - this.base > SUMMARY_MAX_BYTES) throw FULL;
    this.at = p + n;
    return p;
  }

  u8(v: number): void {
    this.bytes[this.room(1)] = v;
  }

  u32(v: number): void {
    this.dv.setUint32(this.room(4), v, true);
  }

  u16(v: number): void {
    this.dv.setUint16(this.room(2), v, true);
  }

  /**
   * A short string's node (tag, length, width, units), written in one pass while its units fit in a byte,
   * again two bytes a unit from the first that does not.
   */
  shortString(s: string): void {
    const n = s.length;
    const start = this.room(STRING_HEADER + n);
    const b = this.bytes;
    b[start] = S_STRING;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) {
        this.at = start + STRING_HEADER;
        this.units(s, 0, n, true);
        this.dv.setUint16(start + 1, n | WIDE_BIT, true);
        return;
      }
      b[start + STRING_HEADER + i] = c;
    }
    this.dv.setUint16(start + 1, n, true);
  }

  /**
   * A short string's node from its `n` bytes at `at` of `src`, one a unit (every unit below 128: its
   * UTF-8 is its units): the node shortString(s) writes, copied rather than read a unit at a time.
   */
  asciiString(src: Uint8Array, at: number, n: number): void {
    const start = this.room(STRING_HEADER + n);
    const b = this.bytes;
    b[start] = S_STRING;
    this.dv.setUint16(start + 1, n, true);
    const p = start + STRING_HEADER;
    if (n <= 32) for (let i = 0; i < n; i++) b[p + i] = src[at + i] as number;
    else b.set(src.subarray(at, at + n), p);
  }

  /** Units [from, to) of `s`, one or two bytes each. */
  units(s: string, from: number, to: number, wide: boolean): void {
    if (wide) {
      const p = this.room(2 * (to - from));
      for (let i = from; i < to; i++) this.dv.setUint16(p + 2 * (i - from), s.charCodeAt(i), true);
    } else {
      const p = this.room(to - from);
      const b = this.bytes;
      for (let i = from; i < to; i++) b[p + i - from] = s.charCodeAt(i);
    }
  }
}

const main = new SummaryWriter();

function anyWide(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) > 0xff) return true;
  return false;
}

/**
 * What the summary under way has cost: its OPAQUE parts' walks and its long strings' units (past
 * MAX_WALK_UNITS, one string of 1 MB in every element of an array was read whole for each element).
 */
const work = new PartsWork();

/** Thrown once the summary under way has spent its work (PartsWork). */
const SPENT = new Error('summary spent');

/** Starts counting the work of a summary's OPAQUE parts (summarizeArgs, the encoder's mirror). */
export function beginOpaqueWork(): void {
  work.reset();
}

/** Writes an OPAQUE node: the value's canonical fingerprint (throws once the summary's work is spent). */
export function opaqueNode(w: SummaryWriter, v: unknown): void {
  if (work.spent()) throw SPENT;
  let lo = 0;
  let hi = 0;
  try {
    lo = hashValue(v);
    hi = u64.hi;
  } catch {
    // hashValue never throws on a value; should it, every such value is one fingerprint
  }
  // (a part reusing one object past the repeat budget spends the summary: `[v, v]` forty levels deep had six
  // such parts, each a whole budget, before OPAQUE_WORK_MAX)
  work.walked();
  w.u8(S_OPAQUE);
  w.u32(lo);
  w.u32(hi);
}

let mid1 = 0;
let mid2 = 0;

/** `B^2 mod 2^32` of each base: the step of a hash taken two units at a time. */
const SQUARE_1 = Math.imul(BASE_1, BASE_1);
const SQUARE_2 = Math.imul(BASE_2, BASE_2);

/**
 * `H` of `s[from, to)` in both bases, into `mid1` and `mid2`: one read of the units, two at a time
 * (`H(x ++ ab) = H(x) * B^2 + a * B + b`, the same sum modulo 2^32), so each hash's chain of dependent
 * multiplies is half as long as one unit at a time (a long string's hashes were most of its summary's cost).
 */
function midHashes(s: string, from: number, to: number): void {
  let h = 0;
  let g = 0;
  let i = from;
  for (; i + 1 < to; i += 2) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    h = (Math.imul(h, SQUARE_1) + Math.imul(a, BASE_1) + b) | 0;
    g = (Math.imul(g, SQUARE_2) + Math.imul(a, BASE_2) + b) | 0;
  }
  if (i < to) {
    const c = s.charCodeAt(i);
    h = (Math.imul(h, BASE_1) + c) | 0;
    g = (Math.imul(g, BASE_2) + c) | 0;
  }
  mid1 = h >>> 0;
  mid2 = g >>> 0;
}

/**
 * Writes a string node. `src`: when not null, the string's `s.length` bytes at `srcAt` of the module's
 * memory, one a unit (every unit below 128): a long string is then hashed where it lies. `mayBeAscii`
 * false: a unit is known to be 128 or more (the module cannot hash it: not tried).
 */
export function stringNode(w: SummaryWriter, s: string, src: Uint8Array | null = null, srcAt = 0, mayBeAscii = true): void {
  const n = s.length;
  if (n <= STRING_WHOLE) {
    if (src === null) w.shortString(s);
    else w.asciiString(src, srcAt, n);
    return;
  }
  // a long string's units are all read: counted against the summary's work
  if (!work.read(n)) throw SPENT;
  const K = STRING_KEPT;
  // the hashes of all but the last K units and of all but the first K, from the middle's, read once:
  // H(head ++ mid) and H(mid ++ tail) (unit-hash.ts); in the module when every unit is below 128
  const mid = n - 2 * K;
  const inModule = moduleHashing && (src === null ? mayBeAscii && moduleStringHashes(s, K) : moduleHashesAt(src, srcAt, n, K));
  const wide = !inModule && (anyWide(s, 0, K) || anyWide(s, n - K, n));
  let head1: number, head2: number, tail1: number, tail2: number;
  if (inModule) {
    const h = moduleHashes.hashes;
    head1 = h[0] as number;
    head2 = h[1] as number;
    mid1 = h[2] as number;
    mid2 = h[3] as number;
    tail1 = h[4] as number;
    tail2 = h[5] as number;
  } else {
    midHashes(s, 0, K);
    head1 = mid1;
    head2 = mid2;
    midHashes(s, n - K, n);
    tail1 = mid1;
    tail2 = mid2;
    midHashes(s, K, n - K);
  }
  const p1 = joinHash(head1, BASE_1, mid1, mid);
  const p2 = joinHash(head2, BASE_2, mid2, mid);
  const s1 = joinHash(mid1, BASE_1, tail1, K);
  const s2 = joinHash(mid2, BASE_2, tail2, K);
  // the end of the word holding unit K - 1 (when it is a word character)
  let headRunEnd = 0;
  if (isWordUnit(s.charCodeAt(K - 1))) {
    headRunEnd = K;
    while (headRunEnd < n && isWordUnit(s.charCodeAt(headRunEnd))) headRunEnd++;
  }
  // the first whole word starting at K or after, before the units kept at the end (none starts inside the
  // word holding unit K - 1: the search begins past it, so a string is read once however long its words)
  let midRunStart = NO_RUN;
  let midRunEnd = 0;
  for (let i = headRunEnd > K ? headRunEnd : K; i < n - K; i++) {
    if (isWordUnit(s.charCodeAt(i)) && !isWordUnit(s.charCodeAt(i - 1))) {
      midRunStart = i;
      let e = i + 1;
      while (e < n && isWordUnit(s.charCodeAt(e))) e++;
      midRunEnd = e;
      break;
    }
  }
  w.u8(S_LONG);
  w.u32(n);
  w.u8(wide ? 1 : 0);
  w.u32(p1 >>> 0);
  w.u32(p2 >>> 0);
  w.u32(s1 >>> 0);
  w.u32(s2 >>> 0);
  w.u32(headRunEnd);
  w.u32(midRunStart);
  w.u32(midRunEnd);
  w.u8(isWordUnit(s.charCodeAt(n - K - 1)) ? 1 : 0);
  if (inModule) {
    // one byte a unit, already in the module's memory
    const b = moduleHashes.bytes;
    const at = moduleHashes.at;
    w.bytes.set(b.subarray(at, at + K), w.room(K));
    w.bytes.set(b.subarray(at + n - K, at + n), w.room(K));
    return;
  }
  w.units(s, 0, K, wide);
  w.units(s, n - K, n, wide);
}

/** Writes a number's node (SMALL or NUMBER). */
export function numberNode(w: SummaryWriter, v: number): void {
  if (v === (v << 24) >> 24 && !Object.is(v, -0)) {
    const p = w.room(2);
    w.bytes[p] = S_SMALL;
    w.bytes[p + 1] = v & 0xff;
    return;
  }
  w.u8(S_NUMBER);
  w.dv.setFloat64(w.room(8), v, true);
}

function node(w: SummaryWriter, v: unknown, depth: number): void {
  switch (typeof v) {
    case 'string':
      stringNode(w, v);
      return;
    case 'number':
      numberNode(w, v);
      return;
    case 'boolean':
      w.u8(v ? S_TRUE : S_FALSE);
      return;
    case 'bigint': {
      const n = Number(v);
      if (Number.isFinite(n) && BigInt(n) === v) numberNode(w, n);
      else opaqueNode(w, v);
      return;
    }
    case 'object':
      if (v === null) {
        w.u8(S_NULL);
        return;
      }
      if (depth < MAX_ARGS_DEPTH) {
        const mark = w.at;
        try {
          if (container(w, v, depth)) return;
        } catch {
          // its parts cannot be read, or its summary would pass the budget (FULL): compared whole, by
          // fingerprint; its siblings stay as they are (when even that does not fit, its parent goes whole)
          w.at = mark;
        }
      }
      opaqueNode(w, v);
      return;
    default:
      w.u8(S_NULL);
  }
}

/** Writes an array or a plain object; false (nothing written) for another object. */
function container(w: SummaryWriter, v: object, depth: number): boolean {
  if (Array.isArray(v)) {
    // more elements than a summary's bytes cannot fit (each takes one at least): FULL before the count is written
    if (v.length > SUMMARY_MAX_BYTES) throw FULL;
    const start = w.at;
    w.u8(S_ARRAY);
    w.u16(0);
    w.u16(v.length);
    for (let i = 0; i < v.length; i++) node(w, v[i], depth + 1);
    w.dv.setUint16(start + 1, w.at - start, true);
    return true;
  }
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length > SUMMARY_MAX_BYTES) throw FULL;
  const start = w.at;
  w.u8(S_OBJECT);
  w.u16(0);
  w.u16(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    w.shortString(k);
    node(w, v[k], depth + 1);
  }
  w.dv.setUint16(start + 1, w.at - start, true);
  return true;
}

/**
 * The summary of args as similar args compares them (normalised, masked when it masks), in a buffer reused
 * by the next call: copy what is kept. Never throws.
 */
export function summarizeArgs(args: unknown): Uint8Array {
  const w = main;
  w.at = 0;
  beginOpaqueWork();
  try {
    node(w, args, 0);
  } catch (e) {
    if (e !== FULL && e !== SPENT) throw e;
    w.at = 0;
    beginOpaqueWork();
    opaqueNode(w, args);
  }
  return w.bytes.subarray(0, w.at);
}
