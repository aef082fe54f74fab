/**
 * Canonical 64-bit fingerprints of JavaScript values.
 *
 * Canonical means: key order never matters, `1` and `1.0` are the same number, `-0` is `0`, every NaN is
 * one NaN, and values JSON cannot hold are hashed deterministically instead of throwing:
 *
 * | value                               | hashed as                                                |
 * |-------------------------------------|----------------------------------------------------------|
 * | string                              | its UTF-8 bytes (lone surrogates become U+FFFD)          |
 * | number                              | its float64 bits (`-0` as `0`, one NaN, ±Infinity kept)  |
 * | bigint                              | the number when exactly representable, else its digits   |
 * | `undefined`, function, symbol       | omitted as an object member, `null` elsewhere (as JSON)  |
 * | object with `toJSON` (Date, Buffer) | what `toJSON()` returns (as JSON)                        |
 * | Map / Set                           | order-independent sums of entries / members              |
 * | typed array, DataView, ArrayBuffer  | its bytes                                                |
 * | a reference to an ancestor (cycle)  | a marker holding how many levels up the ancestor is      |
 * | nesting deeper than `maxDepth`      | a single "too deep" marker                               |
 * | array elements past the walk's budget | one "too many" marker with the length (element-budget.ts) |
 * | an object met again past the repeat budget | one "too many" marker holding 0 (element-budget.ts) |
 * | a string or bytes past the walk's units  | one "too many" marker with the length; a key: its member left out (unit-budget.ts) |
 * | an object of more own keys than the member cap | one "too many members" marker with its key count (member-budget.ts) |
 * | a getter or proxy that throws       | an "unsupported" marker                                  |
 *
 * See `combine.ts` for how member fingerprints are combined. Results come back as the low word with the
 * high word in `u64.hi`.
 */
import { MAX_WALK_ELEMENTS, RepeatBudget, TRACK_SHARED_AFTER, elementsWalked } from './element-budget.js';
import { MAX_WALK_UNITS } from './unit-budget.js';
import { MAX_WALK_MEMBERS } from './member-budget.js';
import { carriedFingerprint } from './restored-value.js';
import { Tag, close, fold, pair, sum, word } from './combine.js';
import { u64 } from './u64.js';
import { xxh64 } from './xxh64.js';

/** How deep containers may nest before their contents are replaced by one marker. */
export const DEFAULT_MAX_DEPTH = 64;

const BYTES_TAG = Tag.BYTES;

const encoder = new TextEncoder();
let scratch = new Uint8Array(4096);
const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);

/** Options of a canonical walk. */
export interface CanonicalWalkOptions {
  /** Object keys skipped at every depth (ids, timestamps, nonces). */
  readonly ignoreKeys: ReadonlySet<string> | null;
  /** Containers nested deeper than this are hashed as one marker. */
  readonly maxDepth: number;
}

/** The walk used when no per-tool options apply. */
export const DEFAULT_WALK: CanonicalWalkOptions = { ignoreKeys: null, maxDepth: DEFAULT_MAX_DEPTH };

/** Encodes `s` as UTF-8 into the shared scratch buffer and returns the byte count. */
export function encodeUtf8(s: string): number {
  const need = s.length * 3;
  if (need > scratch.length) scratch = new Uint8Array(Math.max(need, scratch.length * 2));
  return encoder.encodeInto(s, scratch).written;
}

/** The scratch buffer filled by the last {@link encodeUtf8}. */
export function utf8Scratch(): Uint8Array {
  return scratch;
}

/** Fingerprint of a string's UTF-8 bytes under a tag (default: string). */
export function hashString(s: string, tag: number = Tag.STRING): number {
  const n = encodeUtf8(s);
  return xxh64(scratch, 0, n, 0, tag);
}

/** Fingerprint of a number by its float64 bits, with `-0` folded into `0` and one NaN. */
export function hashNumber(n: number): number {
  if (n !== n) return word(Tag.NUMBER, 0x7ff80000, 0);
  f64[0] = n + 0;
  return word(Tag.NUMBER, f64Words[1] as number, f64Words[0] as number);
}

function hashBigInt(b: bigint, depth: number): number {
  const n = Number(b);
  if (Number.isFinite(n) && BigInt(n) === b) return hashNumber(n);
  const digits = b.toString();
  return takeUnits(digits.length, depth) ? hashString(digits, Tag.BIGINT) : tooManyUnits(digits.length);
}

function constant(tag: number): number {
  return word(tag, 0, 0);
}

/** Whether a member with this value is left out of an object, as JSON.stringify does. */
function isOmitted(v: unknown): boolean {
  const t = typeof v;
  return t === 'undefined' || t === 'function' || t === 'symbol';
}

/**
 * Fingerprint of any value (see the table above). Returns the low word; the high word is in `u64.hi`.
 */
export function hashValue(value: unknown, options: CanonicalWalkOptions = DEFAULT_WALK): number {
  if (options === DEFAULT_WALK && typeof value === 'object' && value !== null) {
    // a value restored from a snapshot answers with its original's fingerprint
    const carried = carriedFingerprint(value);
    if (carried !== undefined) {
      u64.hi = carried[1];
      return carried[0];
    }
  }
  const ancestors: object[] = [];
  // a toJSON or getter may hash another value on the way: the budget of this walk is put back after it
  const outer = elementsLeft;
  elementsLeft = MAX_WALK_ELEMENTS;
  const outerUnits = unitsLeft;
  unitsLeft = MAX_WALK_UNITS;
  const outerWhole = wholeUnits;
  wholeUnits = 0;
  const outerRepeats = repeats;
  repeats = walksUnderWay === 0 ? firstRepeats : new RepeatBudget();
  repeats.reset();
  const outerNoting = noting;
  noting = nextNoting;
  nextNoting = null;
  const outerPositional = positional;
  positional = false;
  walksUnderWay++;
  try {
    return walk(value, 0, ancestors, options);
  } finally {
    lastNodes = repeats.nodes;
    lastCut = repeats.cut;
    lastUnits = MAX_WALK_UNITS - unitsLeft + wholeUnits;
    lastPositional = positional;
    noting = outerNoting;
    positional = outerPositional;
    walksUnderWay--;
    repeats = outerRepeats;
    elementsLeft = outer;
    unitsLeft = outerUnits;
    wholeUnits = outerWhole;
  }
}

/**
 * The fingerprint of `value` (the default walk), with in `notes` the fingerprint of each object it hashed
 * whole no more than `maxDepth` levels down, as (low, high) words: one walk for a caller that needs the
 * fingerprint of every container of a value (the snapshot's value codec), where hashing each on its own
 * walks a value once per level it lies at. Returns whether each noted fingerprint is the one `hashValue`
 * gives that object on its own: true unless the walk met a marker whose meaning depends on where the walk
 * began (a cycle, the depth cap, an element, unit, member or repeat budget's "too many"), or `value`
 * carries a restored fingerprint (then nothing is noted).
 */
export function hashValueNoting(value: unknown, notes: Map<object, readonly [number, number]>, maxDepth: number): boolean {
  if (typeof value === 'object' && value !== null && carriedFingerprint(value) !== undefined) return false;
  nextNoting = notes;
  notingDepth = maxDepth;
  try {
    hashValue(value);
  } finally {
    nextNoting = null;
  }
  return !lastPositional;
}

/** The notes the next walk to start fills (hashValueNoting), and those of the walk under way. */
let nextNoting: Map<object, readonly [number, number]> | null = null;
let noting: Map<object, readonly [number, number]> | null = null;
/** How deep the walk under way notes objects. */
let notingDepth = 0;
/** Whether the walk under way, and the last to end, met a marker that depends on where the walk began. */
let positional = false;
let lastPositional = false;

/** The repeat budget of the outermost walk, kept from one walk to the next. */
const firstRepeats = new RepeatBudget();
/** The repeat budget of the walk under way (see element-budget.ts). */
let repeats = firstRepeats;
/** How many walks are under way (a toJSON or getter may start another). */
let walksUnderWay = 0;
/** The nodes the last walk to end counted. */
let lastNodes = 0;
/** The units the last walk to end hashed (its value's own, when one string or bytes, included). */
let lastUnits = 0;
/** Whether the last walk to end put the repeat marker in an object's place. */
let lastCut = false;

/**
 * Whether the last {@link hashValue} to end met an object again past the repeat budget (element-budget.ts):
 * its value reuses objects as only a hostile value does, and walking other parts of it costs as much again.
 */
export function lastWalkCut(): boolean {
  return lastCut;
}

/**
 * The nodes (objects, array elements, own keys, Map entries, Set members: element-budget.ts) the last
 * {@link hashValue} to end walked: its work, for a caller hashing many parts of one value.
 */
export function lastWalkNodes(): number {
  return lastNodes;
}

/**
 * The string units (and bytes) the last {@link hashValue} to end hashed (unit-budget.ts), those of a value
 * that is one string or typed array included: its work, for a caller hashing many parts of one value.
 */
export function lastWalkUnits(): number {
  return lastUnits;
}

/** Array elements the walk under way may still visit (see element-budget.ts). */
let elementsLeft = MAX_WALK_ELEMENTS;
/** String units (and bytes) the walk under way may still hash inside containers (see unit-budget.ts). */
let unitsLeft = MAX_WALK_UNITS;
/** Units of the value under way hashed whole: itself one string, BigInt or typed array (depth 0). */
let wholeUnits = 0;

/**
 * Whether `n` units met inside a container fit what is left of the walk's units: taken when they do
 * (unit-budget.ts). A value that is itself one string (depth 0) is hashed whole and not counted.
 */
function takeUnits(n: number, depth: number): boolean {
  if (depth === 0) {
    wholeUnits += n;
    return true;
  }
  if (n > unitsLeft) {
    positional = true;
    return false;
  }
  unitsLeft -= n;
  return true;
}

/** The marker of `n` units past the walk's units (unit-budget.ts). */
function tooManyUnits(n: number): number {
  return word(Tag.MANY, 0, n);
}

function walk(v: unknown, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  switch (typeof v) {
    case 'string':
      return takeUnits(v.length, depth) ? hashString(v) : tooManyUnits(v.length);
    case 'number':
      return hashNumber(v);
    case 'boolean':
      return constant(v ? Tag.TRUE : Tag.FALSE);
    case 'bigint':
      return hashBigInt(v, depth);
    case 'object':
      if (v === null) return constant(Tag.NULL);
      return walkObject(v, depth, ancestors, o);
    default:
      return constant(Tag.NULL);
  }
}

function walkObject(v: object, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  const rb = repeats;
  const from = rb.nodes;
  rb.count();
  const at = ancestors.lastIndexOf(v);
  if (at >= 0) {
    positional = true;
    return word(Tag.CYCLE, 0, ancestors.length - at);
  }
  if (depth >= o.maxDepth) {
    positional = true;
    return constant(Tag.DEEP);
  }
  const repeat = rb.enter(v);
  // an object met again past the repeat budget: one marker
  if (repeat < 0) {
    positional = true;
    return word(Tag.MANY, 0, 0);
  }
  // walkWhole never throws (what throws is the "unsupported" marker)
  const l = walkWhole(v, depth, ancestors, o);
  if (noting !== null && depth <= notingDepth) noting.set(v, [l, u64.hi]);
  // leave() reads and writes only its own map, never u64.hi (the high word of `l`)
  if (repeat !== 0 || rb.nodes > TRACK_SHARED_AFTER) rb.leave(v, repeat, from);
  return l;
}

function walkWhole(v: object, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  try {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const j: unknown = toJSON.call(v, '');
      if (j !== v) return walk(j, depth, ancestors, o);
    }
    if (ArrayBuffer.isView(v)) return takeUnits(v.byteLength, depth) ? xxh64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), 0, v.byteLength, 0, BYTES_TAG) : tooManyUnits(v.byteLength);
    if (v instanceof ArrayBuffer) return takeUnits(v.byteLength, depth) ? xxh64(new Uint8Array(v), 0, v.byteLength, 0, BYTES_TAG) : tooManyUnits(v.byteLength);
    ancestors.push(v);
    try {
      if (Array.isArray(v)) return walkArray(v, depth, ancestors, o);
      if (v instanceof Map) return walkMap(v, depth, ancestors, o);
      if (v instanceof Set) return walkSet(v, depth, ancestors, o);
      return walkMembers(v as Record<string, unknown>, depth, ancestors, o);
    } finally {
      ancestors.pop();
    }
  } catch {
    return constant(Tag.UNSUPPORTED);
  }
}

function walkArray(a: readonly unknown[], depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  let h = 0;
  let l: number = Tag.ARRAY;
  const n = a.length;
  const k = elementsWalked(n, elementsLeft);
  elementsLeft -= k;
  for (let i = 0; i < k; i++) {
    repeats.count();
    const el = a[i];
    const el_l = isOmitted(el) ? constant(Tag.NULL) : walk(el, depth + 1, ancestors, o);
    const el_h = u64.hi;
    l = fold(h, l, el_h, el_l);
    h = u64.hi;
  }
  if (k === n) return close(h, l, n);
  // the rest past the budget: one marker holding the length
  positional = true;
  const ml = word(Tag.MANY, 0, n);
  l = fold(h, l, u64.hi, ml);
  return close(u64.hi, l, k + 1);
}

function walkMembers(obj: Record<string, unknown>, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  let sh = 0;
  let sl = 0;
  let n = 0;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    // past the member cap the object is one marker holding its key count (member-budget.ts)
    if (i === MAX_WALK_MEMBERS) return tooManyMembers(keys.length);
    const k = keys[i] as string;
    repeats.count();
    if (o.ignoreKeys !== null && o.ignoreKeys.has(k)) continue;
    const val = obj[k];
    if (isOmitted(val)) continue;
    // a key past the walk's units leaves its member out (counted before the value, as the encoding writes it)
    if (!takeUnits(k.length, depth + 1)) continue;
    const vl = walk(val, depth + 1, ancestors, o);
    const vh = u64.hi;
    const kl = hashString(k);
    const kh = u64.hi;
    const pl = pair(kh, kl, vh, vl);
    sl = sum(sh, sl, u64.hi, pl);
    sh = u64.hi;
    n++;
  }
  const l = fold(0, Tag.OBJECT, sh, sl);
  return close(u64.hi, l, n);
}

/** An object of `n` own keys, past the member cap: close(fold(OBJECT, many(n)), 0) (member-budget.ts). */
function tooManyMembers(n: number): number {
  positional = true;
  const ml = word(Tag.MANY, 0, n);
  const l = fold(0, Tag.OBJECT, u64.hi, ml);
  return close(u64.hi, l, 0);
}

function walkMap(m: Map<unknown, unknown>, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  let sh = 0;
  let sl = 0;
  for (const [k, val] of m) {
    repeats.count();
    const kl = walk(k, depth + 1, ancestors, o);
    const kh = u64.hi;
    const vl = walk(val, depth + 1, ancestors, o);
    const vh = u64.hi;
    const pl = pair(kh, kl, vh, vl);
    sl = sum(sh, sl, u64.hi, pl);
    sh = u64.hi;
  }
  const l = fold(0, Tag.MAP, sh, sl);
  return close(u64.hi, l, m.size);
}

function walkSet(s: Set<unknown>, depth: number, ancestors: object[], o: CanonicalWalkOptions): number {
  let sh = 0;
  let sl = 0;
  for (const el of s) {
    repeats.count();
    const el_l = walk(el, depth + 1, ancestors, o);
    const ml = word(Tag.SET, u64.hi, el_l);
    sl = sum(sh, sl, u64.hi, ml);
    sh = u64.hi;
  }
  const l = fold(0, Tag.SET, sh, sl);
  return close(u64.hi, l, s.size);
}
