/**
 * The proxy's entries by JSON-RPC id (calls in flight, calls held for a human), keyed by the id as the
 * client wrote it. JSON-RPC ids are strings or numbers (null discouraged); a client may still send an
 * object, an array, `true` or `1e400`, and every `tools/call` is checked whatever its id, so each id has a
 * key:
 *
 * ```
 *  "7" ──> s:7        7, 7.0, 1E0 ──> n:7 (a safe integer: JSON.parse gives one number for all)
 *  9007199254740993 ──> n:9007199254740993   (past 2^53: the digits written, exact-ids.ts; not the rounded n:9007199254740992)
 *  1e400 ──> n:1e400    null ──> null    {"a":1} ──> j:{"a":1}   (its JSON, written again: white space does not count)
 * ```
 * Before, a number past 2^53 was keyed by its double: 9007199254740993 and 9007199254740992 in flight
 * together were one entry, so the first call's answer was recorded as the second call's outcome (with the
 * second's warnings) and the second's answer paired with nothing. A server that rounds such an id in its
 * answer (a JavaScript server answers 9007199254740993 with ...992) still finds its call when only one
 * call in the table has that double.
 */
import { jsonText } from './json-text.js';

/** The key of an id (`text`: how it was written, when a double does not hold it); undefined when there is no id. */
export function idKey(id: unknown, text?: string): string | undefined {
  if (id === undefined) return undefined;
  if (typeof id === 'string') return `s:${id}`;
  if (typeof id === 'number') return `n:${Number.isSafeInteger(id) ? String(id) : (text ?? String(id))}`;
  if (id === null) return 'null';
  return `j:${jsonText(id) ?? ''}`;
}

/** Whether `id` is a number a double may not hold as written (its key is its text). */
function rounds(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/** Entries by id, oldest first; an id past 2^53 also found by its double when no other entry shares it. */
export class IdTable<T> {
  private readonly entries = new Map<string, T>();
  /** For each double of the number ids past 2^53 in the table, their keys. */
  private readonly byDouble = new Map<number, Set<string>>();

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Sets the entry of `id` (as the newest), replacing one of the same key. Returns its key. */
  set(id: unknown, text: string | undefined, value: T): string {
    const key = idKey(id, text) ?? 'undefined';
    this.delete(key);
    this.entries.set(key, value);
    if (rounds(id)) {
      const keys = this.byDouble.get(id) ?? new Set<string>();
      keys.add(key);
      this.byDouble.set(id, keys);
    }
    return key;
  }

  /**
   * The key of the entry `id` names: its own key, else, for a number past 2^53 written otherwise (rounded by
   * the server), the one entry of the same double; undefined when there is none or more than one.
   */
  find(id: unknown, text?: string): string | undefined {
    const key = idKey(id, text);
    if (key === undefined) return undefined;
    if (this.entries.has(key)) return key;
    if (!rounds(id)) return undefined;
    const keys = this.byDouble.get(id);
    return keys !== undefined && keys.size === 1 ? (keys.values().next().value as string) : undefined;
  }

  /** The entry of `key`. */
  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** The oldest entry's key. */
  oldest(): string | undefined {
    return this.entries.keys().next().value;
  }

  /** Takes out the entry of `key`: its value, if it was there. */
  delete(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    if (key.startsWith('n:')) {
      const double = Number(key.slice(2));
      const keys = this.byDouble.get(double);
      keys?.delete(key);
      if (keys?.size === 0) this.byDouble.delete(double);
    }
    return value;
  }
}
