/**
 * Editing a JSON text in place, so a settings file keeps its own formatting (an array on one line stays
 * on one line, key order and spacing stay) where loopwatch adds or removes its entries: the text is read
 * into a tree of spans (where each value, member and element starts and ends), and an entry is taken out
 * with the separator before or after it, or put in after the last one with the separator and indentation
 * the container already uses.
 *
 * ```
 *   {"a": [1, 2], "b": {}}      entries of the root: `"a": [1, 2]` [1, 12), `"b": {}` [14, 21)
 *   remove "b"   -> {"a": [1, 2]}            (the separator before it goes with it)
 *   append 3 to a -> {"a": [1, 2, 3], ...}   (", " as between 1 and 2)
 * ```
 *
 * The text must be JSON that JSON.parse accepted (settings-file.ts reads it first).
 */

/** A JSON value's span, with its members or elements. */
export type JsonNode =
  | { readonly kind: 'object'; readonly start: number; readonly end: number; readonly entries: readonly JsonMember[] }
  | { readonly kind: 'array'; readonly start: number; readonly end: number; readonly entries: readonly JsonEntry[] }
  | { readonly kind: 'value'; readonly start: number; readonly end: number };

/** An element of an array: its span is its value's. */
export interface JsonEntry {
  readonly start: number;
  readonly end: number;
  readonly value: JsonNode;
}

/** A member of an object: from its key's opening quote to its value's end. */
export interface JsonMember extends JsonEntry {
  readonly key: string;
}

/** Containers nested deeper than this are refused (settings files are shallow). */
const MAX_DEPTH = 256;

/** Reads the spans of `text` (JSON that JSON.parse accepts). Throws Error for nesting deeper than MAX_DEPTH. */
export function jsonTree(text: string): JsonNode {
  let at = 0;
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const string = (): string => {
    const from = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(from, at)) as string;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) throw new Error(`nested deeper than ${MAX_DEPTH}`);
    space();
    const start = at;
    const c = text[at];
    if (c === '{' || c === '[') {
      at++;
      const entries: JsonEntry[] = [];
      space();
      while (text[at] !== (c === '{' ? '}' : ']')) {
        const from = at;
        const key = c === '{' ? string() : undefined;
        if (key !== undefined) {
          space();
          at++; // the colon
        }
        const v = value(depth + 1);
        entries.push(key === undefined ? { start: from, end: v.end, value: v } : ({ key, start: from, end: v.end, value: v } as JsonMember));
        space();
        if (text[at] === ',') at++;
        space();
      }
      at++;
      return c === '{' ? { kind: 'object', start, end: at, entries: entries as JsonMember[] } : { kind: 'array', start, end: at, entries };
    }
    if (c === '"') string();
    else while (at < text.length && !' \t\n\r,]}'.includes(text[at] as string)) at++;
    return { kind: 'value', start, end: at };
  };
  return value(0);
}

/** The member `key` of an object node (the last one, as JSON.parse reads duplicates), or undefined. */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
  if (node.kind !== 'object') return undefined;
  for (let i = node.entries.length - 1; i >= 0; i--) if ((node.entries[i] as JsonMember).key === key) return node.entries[i] as JsonMember;
  return undefined;
}

/** `text` without entry `i` of `container`, and the separator that went with it. */
export function removeEntry(text: string, container: JsonNode, i: number): string {
  if (container.kind === 'value') throw new Error('not a container');
  const e = container.entries;
  const entry = e[i] as JsonEntry;
  if (e.length === 1) return text.slice(0, container.start + 1) + text.slice(container.end - 1);
  if (i < e.length - 1) return text.slice(0, entry.start) + text.slice((e[i + 1] as JsonEntry).start);
  return text.slice(0, (e[i - 1] as JsonEntry).end) + text.slice(entry.end);
}

/** The whitespace a line of `text` begins with, at `at`. */
function lineIndent(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/**
 * `text` with `value` put after the last entry of `container` (as member `key` of an object), formatted as
 * its entries are: on their own lines with their indentation (`unit` per level), or on one line.
 */
export function appendEntry(text: string, container: JsonNode, value: unknown, unit: string, key?: string): string {
  if (container.kind === 'value') throw new Error('not a container');
  const e = container.entries;
  const head = key === undefined ? '' : `${JSON.stringify(key)}: `;
  if (e.length === 0) {
    // an empty container, `{}` or `[]` (with anything between): written as the file writes others
    const outer = lineIndent(text, container.start);
    const multiline = text.includes('\n');
    const inner = multiline ? `\n${outer}${unit}${head}${format(value, unit, outer + unit)}\n${outer}` : `${head}${JSON.stringify(value)}`;
    return text.slice(0, container.start + 1) + inner + text.slice(container.end - 1);
  }
  const last = e[e.length - 1] as JsonEntry;
  // the separator between its last two entries; after a lone entry, the space before it on its own line, else ", "
  const gap = text.slice(container.start + 1, (e[0] as JsonEntry).start);
  const sep = e.length >= 2 ? text.slice((e[e.length - 2] as JsonEntry).end, last.start) : gap.includes('\n') ? `,${gap}` : ', ';
  const onLines = sep.includes('\n');
  const body = onLines ? format(value, unit, lineIndent(text, last.start)) : JSON.stringify(value);
  return text.slice(0, last.end) + sep + head + body + text.slice(last.end);
}

/** `value` as JSON indented by `unit`, its lines after the first starting with `indent`. */
function format(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}
