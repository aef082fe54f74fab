/**
 * The text of a call's outcome as every part reads it: an error's text (its message, or its JSON) and a
 * result's text for masking (itself, its JSON, or its fingerprint in letters). The session's observer, the
 * module's record writer, the outcome facts and the pool's check of what reaches a worker unchanged all
 * read outcomes through these two.
 */
import { hashValue } from '../fingerprint/canonical-hash.js';
import { u64 } from '../fingerprint/u64.js';
import { MAX_WALK_UNITS } from '../fingerprint/unit-budget.js';

/**
 * The text of an error: `undefined` when there is none (absent, null, false or an empty string);
 * `''` for `true`; the message of an Error or of an object with a `message`; otherwise its JSON (past
 * {@link outcomeJson}'s bounds its fingerprint in letters), or when JSON cannot write it its String() (an
 * array's fingerprint: {@link outcomeString}). Throws when none of these can be read (a getter or Proxy trap that
 * throws, an object neither JSON nor String can write): such an event is refused (validateEvent).
 */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === false || error === '') return undefined;
  if (error === true) return '';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  try {
    return outcomeJson(error, false) ?? outcomeString(error);
  } catch {
    return outcomeString(error);
  }
}

/**
 * The text of a result for masking: itself when a string, else its JSON (BigInt as digits), or String()
 * when JSON has none (a function, a symbol); a value neither can write (a cycle, a getter that throws)
 * stands as its fingerprint, in letters masking keeps, so that different such results never mask alike.
 * Never throws. `fingerprint`, when given, is the result's fingerprint in letters
 * ({@link fingerprintLetters} of `hashValue(result)`) from a caller that has it without walking the value
 * again (the module's record writer, which has just encoded it); by default the value is hashed here.
 */
export function resultText(result: unknown, fingerprint: (v: unknown) => string = fingerprintText): string {
  if (typeof result === 'string') return result;
  try {
    return outcomeJson(result, true, fingerprint) ?? outcomeString(result);
  } catch {
    return fingerprint(result);
  }
}

/** Values (array elements, holes included, object members) JSON text of an outcome may hold. */
export const OUTCOME_JSON_VALUES = 1 << 18;
/**
 * UTF-16 units of strings (values and keys) JSON text of an outcome may hold: a walk's units
 * (fingerprint/unit-budget.ts), so that a result holding one long string in every element is read at most
 * that much, as its fingerprint is.
 */
export const OUTCOME_JSON_UNITS = MAX_WALK_UNITS;

/** Thrown by boundedJson's replacer past its bounds. */
const TOO_LARGE = new Error('outcome too large for JSON text');

/**
 * The JSON text of an outcome (BigInt as its digits when `bigints`; undefined where JSON.stringify gives
 * none), or past {@link boundedJson}'s bounds its fingerprint in letters: never its String(), which walks an
 * array's elements as JSON.stringify does (`[v, v]` forty levels deep: 2^40 visits, a string past any
 * length). Throws what JSON.stringify throws otherwise (a cycle, a BigInt when not `bigints`, a getter).
 * errorText, resultText and the SDK adapters' outcome text read values through it.
 */
export function outcomeJson(v: unknown, bigints: boolean, fingerprint: (v: unknown) => string = fingerprintText): string | undefined {
  try {
    return boundedJson(v, bigints);
  } catch (e) {
    if (e === TOO_LARGE) return fingerprint(v);
    throw e;
  }
}

/**
 * JSON.stringify of `v` (BigInt as its digits when `bigints`), throwing past OUTCOME_JSON_VALUES values or
 * OUTCOME_JSON_UNITS units of strings and keys: JSON.stringify costs what it visits, so a sparse array of 2^22 holes
 * (9.8 s, 500 MB) or one object referenced twice at each of 40 levels (2^40 visits) cost that before its
 * text was refused. Ordinary outcomes are far below both and read as before.
 */
function boundedJson(v: unknown, bigints: boolean): string | undefined {
  let values = 0;
  let units = 0;
  return JSON.stringify(v, function (this: unknown, k: string, x: unknown) {
    if (++values > OUTCOME_JSON_VALUES) throw TOO_LARGE;
    // a member's key is written as its value is (an array's index keys are not written)
    if (!Array.isArray(this) && (units += k.length) > OUTCOME_JSON_UNITS) throw TOO_LARGE;
    if (typeof x === 'string' && (units += x.length) > OUTCOME_JSON_UNITS) throw TOO_LARGE;
    return bigints && typeof x === 'bigint' ? x.toString() : x;
  });
}

/**
 * String() of an outcome JSON could not write (a cycle, a BigInt, a toJSON giving nothing), but an array
 * stands as its fingerprint in letters: an array's String() is its join, which walks every element as JSON
 * does, so an array both cyclic and reusing one array at each of forty levels (2^40 elements) never ended.
 * Throws what String() throws (a revoked Proxy).
 */
export function outcomeString(v: unknown): string {
  return Array.isArray(v) ? fingerprintText(v) : String(v);
}

/** `[value <16 letters>]`: a value's fingerprint as letters g..v (no digits or hex letters, which masking rewrites). */
function fingerprintText(v: unknown): string {
  const lo = hashValue(v);
  return fingerprintLetters(lo, u64.hi);
}

/** `[value <16 letters>]` of a fingerprint's (low, high) words: the text a result JSON cannot write stands as. */
export function fingerprintLetters(lo: number, hi: number): string {
  let s = '[value ';
  for (const w of [hi, lo]) for (let i = 28; i >= 0; i -= 4) s += String.fromCharCode(0x67 + ((w >>> i) & 15));
  return `${s}]`;
}
