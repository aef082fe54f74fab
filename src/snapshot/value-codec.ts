/**
 * Argument values in a snapshot, kept as similar args compares them (see `args-similarity.ts`): strings,
 * numbers, booleans, null and undefined as they are; arrays and objects that are compared key by key as
 * arrays and objects of their own enumerable keys (in order), each with the original's fingerprint; any
 * other value (a Map, a BigInt, a function, a typed array, what lies deeper than similar args looks) as
 * its fingerprint alone. Read back, every comparison similar args makes gives what it gave before.
 */
import { SnapshotError } from '../errors.js';
import { hashValue, hashValueNoting } from '../fingerprint/canonical-hash.js';
import { RestoredValue, carriedFingerprint, carryFingerprint } from '../fingerprint/restored-value.js';
import { u64 } from '../fingerprint/u64.js';
import { MAX_ARGS_DEPTH, isPlainObject } from '../text/args-similarity.js';
import { ArgsEncoder } from '../wasm/args-encoder.js';
import { decodeJsonData } from '../wasm/encoded-args.js';
import type { ByteReader } from './byte-reader.js';
import type { ByteWriter } from './byte-writer.js';

const UNDEFINED = 0;
const NULL = 1;
const FALSE = 2;
const TRUE = 3;
const NUMBER = 4;
const STRING = 5;
const ARRAY = 6;
const OBJECT = 7;
const OPAQUE = 8;
/** Args that are JSON data, in the module's value encoding (writeArgs): read back as that data. */
const JSON_DATA = 9;

/** Fewest bytes an element (a tag) and an object member (a key's form and length, a tag) take. */
const ELEMENT_BYTES = 1;
const MEMBER_BYTES = 6;

/** Containers' fingerprints noted in one walk of the value being written (noteFingerprints), or null. */
type Notes = Map<object, readonly [number, number]> | null;

/**
 * The fingerprint of every object of `v` writeValue may write one for (MAX_ARGS_DEPTH levels down), from one
 * walk of `v`; null where that walk's are not each object's own (hashValueNoting): each is then hashed alone.
 */
function noteFingerprints(v: unknown): Notes {
  if (typeof v !== 'object' || v === null) return null;
  const notes = new Map<object, readonly [number, number]>();
  try {
    return hashValueNoting(v, notes, MAX_ARGS_DEPTH) ? notes : null;
  } catch {
    return null;
  }
}

function fingerprint(w: ByteWriter, v: unknown, notes: Notes): void {
  // a restored value answers with its carried fingerprint (hashValue's), which the walk of its parent does not read
  const noted = notes !== null && typeof v === 'object' && v !== null && carriedFingerprint(v) === undefined ? notes.get(v) : undefined;
  if (noted !== undefined) {
    w.u32(noted[0]);
    w.u32(noted[1]);
    return;
  }
  let lo: number;
  let hi: number;
  try {
    lo = hashValue(v);
    hi = u64.hi;
  } catch {
    lo = 0;
    hi = 0;
  }
  w.u32(lo);
  w.u32(hi);
}

/**
 * Writes a value as similar args sees it. Never throws for the value: a container whose parts cannot be
 * read (a getter or Proxy trap that throws) is written whole as its fingerprint, which is how similar args
 * compares it (args-similarity.ts), and every count written is one readValue reads back. The containers'
 * fingerprints come from one walk of the value (each hashed alone, a walk per level, gave the same bytes).
 */
export function writeValue(w: ByteWriter, v: unknown): void {
  writeAt(w, v, 0, noteFingerprints(v));
}

/** Writes `v`, `depth` levels down from the args, with its containers' noted fingerprints. */
function writeAt(w: ByteWriter, v: unknown, depth: number, notes: Notes): void {
  switch (typeof v) {
    case 'undefined':
      w.u8(UNDEFINED);
      return;
    case 'boolean':
      w.u8(v ? TRUE : FALSE);
      return;
    case 'number':
      w.u8(NUMBER);
      w.f64(v);
      return;
    case 'string':
      w.u8(STRING);
      w.str(v);
      return;
    case 'object': {
      if (v === null) {
        w.u8(NULL);
        return;
      }
      if (depth >= MAX_ARGS_DEPTH) break;
      const mark = w.length;
      try {
        if (writeContainer(w, v, depth, notes)) return;
      } catch {
        w.length = mark; // its parts cannot be read: it is written whole, as its fingerprint
      }
      break;
    }
    default:
      break;
  }
  w.u8(OPAQUE);
  fingerprint(w, v, notes);
}

/** Encodes args that are JSON data nested at most 256 deep (deeper ones go as writeValue writes them). */
const argsEncoder = new ArgsEncoder(JSON_DATA, 256, () => true);

/**
 * Writes a call's args as similar args compares them: JSON data (most args) in the module's value
 * encoding, one walk with no fingerprints to compute (read back as the same data, whose fingerprints are
 * what its own hashing gives); anything else as writeValue writes it, and so are args restored from a
 * snapshot that carry their original's fingerprint (written again as they were read).
 */
export function writeArgs(w: ByteWriter, v: unknown): void {
  if (typeof v === 'object' && v !== null && carriedFingerprint(v) !== undefined) writeValue(w, v);
  else if (!argsEncoder.write(w, '', v)) writeValue(w, v);
}

/** Writes an array or a plain object member by member; false (nothing written) for other objects. */
function writeContainer(w: ByteWriter, v: object, depth: number, notes: Notes): boolean {
  if (Array.isArray(v)) {
    w.u8(ARRAY);
    fingerprint(w, v, notes);
    w.u32(v.length);
    for (let i = 0; i < v.length; i++) writeAt(w, v[i], depth + 1, notes);
    return true;
  }
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  const values = keys.map((k) => v[k]);
  w.u8(OBJECT);
  fingerprint(w, v, notes);
  w.u32(keys.length);
  for (let i = 0; i < keys.length; i++) {
    w.str(keys[i] as string);
    writeAt(w, values[i], depth + 1, notes);
  }
  return true;
}

/** Reads a value writeValue wrote. */
export function readValue(r: ByteReader): unknown {
  const tag = r.u8();
  switch (tag) {
    case UNDEFINED:
      return undefined;
    case NULL:
      return null;
    case FALSE:
      return false;
    case TRUE:
      return true;
    case NUMBER:
      return r.f64();
    case STRING:
      return r.str();
    case ARRAY: {
      const lo = r.u32();
      const hi = r.u32();
      const a: unknown[] = new Array<unknown>(r.items(ELEMENT_BYTES, 'array elements'));
      for (let i = 0; i < a.length; i++) a[i] = readValue(r);
      carryFingerprint(a, lo, hi);
      return a;
    }
    case OBJECT: {
      const lo = r.u32();
      const hi = r.u32();
      const n = r.items(MEMBER_BYTES, 'object members');
      const o: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) Object.defineProperty(o, r.str(), { value: readValue(r), enumerable: true, writable: true, configurable: true });
      carryFingerprint(o, lo, hi);
      return o;
    }
    case OPAQUE:
      return new RestoredValue(r.u32(), r.u32());
    case JSON_DATA:
      try {
        return decodeJsonData(r.bytes());
      } catch (e) {
        throw new SnapshotError(`loopwatch: the snapshot is corrupt (${(e as Error).message})`);
      }
    default:
      throw new SnapshotError(`loopwatch: the snapshot is corrupt (unknown value tag ${tag})`);
  }
}
