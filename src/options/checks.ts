/**
 * Small validators for options. Every failure names the option's dotted path, the rule and the value
 * received with its type, e.g.
 * `options.detectors.cycle.maxPeriod must be an integer >= 2, received 1.5 (number)`.
 */
import { ErrorCode, OptionRangeError, OptionTypeError } from '../errors.js';
import { cutText } from '../text/shown-text.js';

/**
 * Describes a received value for an error message: `1.5 (number)`, `"x" (string)`, `null`. A string shows
 * its first 40 characters, never part of a secret (see `cutText`): messages are redacted where they are shown.
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  switch (typeof value) {
    case 'string':
      return `${JSON.stringify(cutText(value, 41))} (string)`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${String(value)} (${typeof value})`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return `${String(value)} (symbol)`;
    default:
      return `an object`;
  }
}

/**
 * A copy of `value`, which must be a plain object (not an array, Map, Date or class instance), typed as a
 * record: each of its own enumerable properties read once (a getter is called once, a Proxy's keys listed
 * once), so what is checked is what is used, however often either reads it, and a key `__proto__` stays a
 * key. An object that cannot be read (a getter or a Proxy trap that throws, a revoked Proxy) is an
 * OptionTypeError naming where, never the raw error.
 */
export function record(path: string, value: unknown): Record<string, unknown> {
  let at = path;
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new OptionTypeError(path, `${path} must be a plain object, received ${describe(value)}`);
    }
    const proto: unknown = Object.getPrototypeOf(value);
    // a plain object of this realm or another (vm contexts, iframes): its prototype's prototype is null
    const plain = proto === null || (Object.prototype.toString.call(value) === '[object Object]' && Object.getPrototypeOf(proto) === null);
    if (!plain) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new OptionTypeError(path, `${path} must be a plain object, received ${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`);
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      at = `${path}.${key}`;
      Object.defineProperty(copy, key, { value: (value as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
    }
    return copy;
  } catch (e) {
    if (e instanceof OptionTypeError) throw e;
    const why = e instanceof Error ? e.message : 'a value was thrown';
    throw new OptionTypeError(at, `${cutText(at, 200)} could not be read: ${cutText(String(why), 200)}`);
  }
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** Rejects any key of `obj` not in `known`, suggesting the closest known name. */
/**
 * The name in `known` that `key` was most likely meant to be (case aside, within an edit distance of a
 * third of its length and at least 2, or sharing a start or end with it), or undefined.
 */
export function closestName(key: string, known: readonly string[]): string | undefined {
  let best = '';
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  const lower = key.toLowerCase();
  const affix = lower.length < 3 ? undefined : known.find((k) => {
    const kk = k.toLowerCase();
    return kk.startsWith(lower) || lower.startsWith(kk) || kk.endsWith(lower);
  });
  if (bestD > Math.max(2, Math.floor(key.length / 3)) && affix !== undefined) {
    best = affix;
    bestD = 0;
  }
  return key.length > 1 && bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

export function knownKeys(path: string, obj: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const best = closestName(key, known);
    const hint = best === undefined ? '' : ` (did you mean "${best}"?)`;
    throw new OptionTypeError(
      `${path}.${key}`,
      `${path}.${key} is not a known option${hint}; known options of ${path}: ${known.join(', ')}`,
      ErrorCode.UNKNOWN_OPTION,
    );
  }
}

/** An integer in [min, max]. */
export function integer(path: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER, why = ''): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new OptionTypeError(path, `${path} must be an integer, received ${describe(value)}`);
  }
  if (min > max) {
    throw new OptionRangeError(path, `${path} cannot be satisfied: it must be at least ${min}${why} and at most ${max}, received ${describe(value)}; lower the fields it depends on`);
  }
  if (value < min || value > max) {
    const rule = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new OptionRangeError(path, `${path} must be an integer ${rule}${why}, received ${describe(value)}`);
  }
  return value;
}

/** A finite number in [min, max], or (min, max] when `openMin`. */
export function ratio(path: string, value: unknown, min = 0, max = 1, openMin = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new OptionTypeError(path, `${path} must be a finite number, received ${describe(value)}`);
  }
  if ((openMin ? value <= min : value < min) || value > max) {
    const rule = openMin ? `in (${min}, ${max}]` : `in [${min}, ${max}]`;
    throw new OptionRangeError(path, `${path} must be a number ${rule}, received ${describe(value)}`);
  }
  return value;
}

/** A boolean. */
export function bool(path: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new OptionTypeError(path, `${path} must be a boolean, received ${describe(value)}`);
  return value;
}

/** A string. */
export function string(path: string, value: unknown): string {
  if (typeof value !== 'string') throw new OptionTypeError(path, `${path} must be a string, received ${describe(value)}`);
  return value;
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(path: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string') {
    throw new OptionTypeError(path, `${path} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, received ${describe(value)}`);
  }
  if (!(allowed as readonly string[]).includes(value)) {
    throw new OptionRangeError(path, `${path} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, received ${describe(value)}`);
  }
  return value as T;
}

/** A function. */
export function func<T>(path: string, value: unknown): T {
  if (typeof value !== 'function') throw new OptionTypeError(path, `${path} must be a function, received ${describe(value)}`);
  return value as T;
}

/** An array of non-empty strings, at most `max` of them (a longer one is an OptionRangeError, read no further). */
export function stringList(path: string, value: unknown, max = Number.POSITIVE_INFINITY): readonly string[] {
  if (!Array.isArray(value)) throw new OptionTypeError(path, `${path} must be an array of strings, received ${describe(value)}`);
  if (value.length > max) throw new OptionRangeError(path, `${path} must be an array of at most ${max} strings, received ${value.length}`);
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v.length === 0) {
      throw new OptionTypeError(`${path}[${i}]`, `${path}[${i}] must be a non-empty string, received ${describe(v)}`);
    }
  });
  return Object.freeze([...(value as string[])]);
}
