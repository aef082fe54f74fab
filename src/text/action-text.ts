/**
 * The text of an action, as the semantic detector reads it: the tool name, then either the event's
 * description or the string values of its arguments (not keys, not numbers), one per line, in the order
 * the arguments hold them. Encoded as UTF-8 and cut at `maxBytes` on a character boundary.
 */
import { encodeUtf8, utf8Scratch } from '../fingerprint/canonical-hash.js';

/** Nodes visited at most while collecting string values (guards wide and cyclic args). */
export const MAX_TEXT_NODES = 10_000;
/** Nesting followed at most while collecting string values. */
export const MAX_TEXT_DEPTH = 64;

function collect(v: unknown, depth: number, parts: string[], budget: { bytes: number; nodes: number }, seen: object[]): void {
  if (budget.bytes <= 0 || budget.nodes <= 0) return;
  budget.nodes--;
  if (typeof v === 'string') {
    parts.push(v);
    budget.bytes -= v.length + 1;
    return;
  }
  if (typeof v !== 'object' || v === null || depth >= MAX_TEXT_DEPTH || seen.includes(v)) return;
  seen.push(v);
  if (Array.isArray(v)) {
    for (const el of v) collect(el, depth + 1, parts, budget, seen);
  } else if (!(v instanceof Map) && !(v instanceof Set) && !ArrayBuffer.isView(v)) {
    try {
      for (const k of Object.keys(v)) collect((v as Record<string, unknown>)[k], depth + 1, parts, budget, seen);
    } catch {
      // a throwing getter or proxy contributes nothing
    }
  }
  seen.pop();
}

/**
 * The action text as a string: the tool, then the description or the args' string values, one per line.
 * Collection stops once the text is surely longer than `maxBytes` bytes; {@link encodeCapped} cuts it.
 */
export function actionText(tool: string, args: unknown, description: string | undefined, maxBytes: number): string {
  if (description !== undefined) return tool + '\n' + description;
  const parts: string[] = [tool];
  collect(args, 0, parts, { bytes: maxBytes * 2 + 16, nodes: MAX_TEXT_NODES }, []);
  return parts.join('\n');
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
