/**
 * The text of an action, as the semantic detector reads it: the tool name, then either the event's
 * description or the string values of its arguments (not keys, not numbers), one per line, encoded as
 * UTF-8 and cut at `maxBytes` without splitting a character.
 *
 * String values are collected in the canonical walk's view of the args (see `canonical-hash.ts`): `toJSON`
 * applied, array elements in order, object members in `Object.keys` order with ignored fields skipped, Map
 * keys and values, Set members; containers at `maxDepth` or deeper, typed arrays and cyclic references
 * give nothing. At most `MAX_TEXT_NODES` values are visited. The WebAssembly build walks JSON text and the
 * host's encoding of args in the same order.
 */
import { encodeUtf8, utf8Scratch } from '../fingerprint/canonical-hash.js';

/** Values visited at most while collecting string values (guards wide args). */
export const MAX_TEXT_NODES = 10_000;

interface Collect {
  readonly parts: string[];
  readonly ignore: ReadonlySet<string> | null;
  readonly maxDepth: number;
  readonly maxUnits: number;
  units: number;
  nodes: number;
}

/** True once collection can add nothing more (node cap or text long enough): loops stop there, not at their end. */
function full(c: Collect): boolean {
  return c.nodes >= MAX_TEXT_NODES || c.units > c.maxUnits;
}

function collect(v: unknown, depth: number, c: Collect, ancestors: object[]): void {
  if (full(c)) return;
  c.nodes++;
  if (typeof v === 'string') {
    c.parts.push(v);
    c.units += v.length + 1;
    return;
  }
  if (typeof v !== 'object' || v === null || depth >= c.maxDepth || ancestors.includes(v)) return;
  const partsBefore = c.parts.length;
  const unitsBefore = c.units;
  const nodesBefore = c.nodes;
  try {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const j: unknown = toJSON.call(v, '');
      if (j !== v) {
        c.nodes--; // the value stands for the object: one node, as in the canonical encoding
        collect(j, depth, c, ancestors);
        return;
      }
    }
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
    ancestors.push(v);
    try {
      if (Array.isArray(v)) {
        // an index loop, not `of`: a sparse array's holes are read as undefined (as `of` does) and the loop
        // stops once full, so a length of 2^32-1 costs the cap, not its length
        for (let i = 0; i < v.length && !full(c); i++) collect(v[i], depth + 1, c, ancestors);
      } else if (v instanceof Map) {
        for (const [k, x] of v) {
          if (full(c)) break;
          collect(k, depth + 1, c, ancestors);
          collect(x, depth + 1, c, ancestors);
        }
      } else if (v instanceof Set) {
        for (const x of v) {
          if (full(c)) break;
          collect(x, depth + 1, c, ancestors);
        }
      } else {
        for (const k of Object.keys(v)) {
          if (full(c)) break;
          if (c.ignore !== null && c.ignore.has(k)) continue;
          const x = (v as Record<string, unknown>)[k];
          const t = typeof x;
          if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
          collect(x, depth + 1, c, ancestors);
        }
      }
    } finally {
      ancestors.pop();
    }
  } catch {
    // a throwing getter, proxy or toJSON: the whole object contributes nothing, as it hashes as one marker
    c.parts.length = partsBefore;
    c.units = unitsBefore;
    c.nodes = nodesBefore;
  }
}

/**
 * The action text as a string: the tool, then the description or the args' string values, one per line.
 * Collection stops once the text is surely longer than `maxBytes` bytes; {@link encodeCapped} cuts it.
 */
export function actionText(
  tool: string,
  args: unknown,
  description: string | undefined,
  maxBytes: number,
  maxDepth = 64,
  ignore: ReadonlySet<string> | null = null,
): string {
  if (description !== undefined) return tool + '\n' + description;
  const c: Collect = { parts: [tool], ignore, maxDepth, maxUnits: maxBytes, units: tool.length, nodes: 0 };
  collect(args, 0, c, []);
  return c.parts.join('\n');
}

/**
 * Writes `text` as UTF-8 into the shared scratch buffer, cut to at most `maxBytes` bytes without
 * splitting a character, and returns the byte count. Read them with `utf8Scratch()` before the next encode.
 */
export function encodeCapped(text: string, maxBytes: number): number {
  const t = text.length > maxBytes ? text.slice(0, maxBytes + 1) : text;
  let n = encodeUtf8(t);
  if (n > maxBytes) {
    const bytes = utf8Scratch();
    n = maxBytes;
    // never keep a partial character: back off over continuation bytes to the lead byte, and drop it
    while (n > 0 && ((bytes[n] as number) & 0xc0) === 0x80) n--;
  }
  return n;
}
