/**
 * The JSON text of a message or value the proxy holds, however deep it nests. `JSON.stringify` recurses and
 * throws `RangeError: Maximum call stack size exceeded` past some thousands of levels (a result whose
 * `structuredContent` nests 10,000 deep, parsed without trouble by `JSON.parse`): the proxy then spent its one
 * internal-error line on it, left the call's outcome unrecorded and dropped its warning. Past that depth the
 * same text is written by a walk without recursion.
 *
 * ```
 *  value ──JSON.stringify──> text                      (every value of a normal depth: the same call as before)
 *          └─RangeError──> walk with a stack ──> text  (the same characters, any depth)
 * ```
 * Only values `JSON.parse` makes and the plain objects and arrays the proxy adds are written (no `toJSON`, no
 * replacer beyond the `id` members given by `idText`); a cycle is still JSON.stringify's TypeError.
 */

/** The text to write for the `id` member of `holder` in place of its value, or undefined to write the value. */
export type IdTextOf = (holder: object) => string | undefined;

/** A container being written: its members left to write. */
interface Open {
  readonly holder: object;
  /** The object's keys; null for an array. */
  readonly keys: readonly string[] | null;
  /** The next member's index. */
  next: number;
  /** Whether a member was written (a comma before the next). */
  wrote: boolean;
}

/** `JSON.stringify(value)` (undefined for undefined), also for a value nested past JSON.stringify's depth. */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return walkText(value);
}

/** The text of a scalar as JSON.stringify writes it inside a container (undefined: not written). */
function scalarText(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return undefined; // undefined, functions, symbols: left out of objects, null in arrays
  }
}

/**
 * JSON.stringify's text of `value` written by a walk with a stack of its own (no recursion); with `idText`,
 * each object's `id` member for which it gives a text is written as that text.
 */
export function walkText(value: unknown, idText?: IdTextOf): string | undefined {
  if (value === null || typeof value !== 'object') return scalarText(value);
  const out: string[] = [];
  const stack: Open[] = [];
  const open = (v: object): void => {
    const keys = Array.isArray(v) ? null : Object.keys(v);
    out.push(keys === null ? '[' : '{');
    stack.push({ holder: v, keys, next: 0, wrote: false });
  };
  open(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Open;
    const length = top.keys === null ? (top.holder as unknown[]).length : top.keys.length;
    if (top.next >= length) {
      out.push(top.keys === null ? ']' : '}');
      stack.pop();
      continue;
    }
    const i = top.next++;
    const key = top.keys === null ? undefined : (top.keys[i] as string);
    const v = key === undefined ? (top.holder as unknown[])[i] : (top.holder as Record<string, unknown>)[key];
    const given = key === 'id' && idText !== undefined ? idText(top.holder) : undefined;
    const scalar = given ?? (v !== null && typeof v === 'object' ? undefined : scalarText(v));
    const isContainer = given === undefined && v !== null && typeof v === 'object';
    if (!isContainer && scalar === undefined && key !== undefined) continue; // left out of an object
    if (top.wrote) out.push(',');
    top.wrote = true;
    if (key !== undefined) out.push(`${JSON.stringify(key)}:`);
    if (isContainer) open(v);
    else out.push(scalar ?? 'null');
  }
  return out.join('');
}
