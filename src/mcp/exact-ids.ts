/**
 * JSON-RPC ids written back as they came. A number id past 2^53 (`9007199254740993`, a Python or Go client's
 * 64-bit counter) is not what JSON.parse gives (`9007199254740992`): a message the proxy writes anew (an
 * answer it adds a warning to, its own refusal of a call, a batch it forwards without the calls it refused)
 * carried the rounded id, which the client could not match, so its call was never answered. The text such
 * an id was written with is kept with its message, and `frameExact` writes it back.
 *
 * ```
 *  {"id":9007199254740993,...}  ──JSON.parse──>  {id: 9007199254740992}  + kept: "9007199254740993"
 *  framed anew ──> {"id":9007199254740993,...}   (the kept text in the id's place)
 * ```
 * Only ids that are numbers but not safe integers are kept; any other id comes back equal as JSON.stringify
 * writes it.
 */
import { randomBytes } from 'node:crypto';
import { jsonText, walkText } from './json-text.js';

/** The text of each message's id, for those whose id a double does not hold exactly. */
const written = new WeakMap<object, string>();

/** Stands in for a kept id while a message is made JSON (random: no text of a message holds it). */
const MARK = `lwid-${randomBytes(8).toString('hex')}-`;

/** The `id` of a message (an object), else undefined. */
function idOf(m: unknown): unknown {
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as { id?: unknown }).id : undefined;
}

/** Whether an id may have lost digits to JSON.parse: a number that is not a safe integer. */
function mayBeRounded(id: unknown): boolean {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/**
 * The text of the `id` member's number value of the message `text` is (an object), or of each message of a
 * batch (an array: by element), as written; undefined where there is none. One pass over a JSON text that
 * parsed; a key written with escapes (`"\u0069d"`) is not found (the parsed id is used then).
 */
export function idTexts(text: string): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  const stack: string[] = []; // '{' or '['
  let element = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const inMessage = (stack.length === 1 && stack[0] === '{') || (stack.length === 2 && stack[0] === '[' && stack[1] === '{');
      if (!inMessage || text.slice(start, i + 1) !== '"id"') continue;
      const value = /^\s*:\s*(-?\d[\d.eE+-]*)/.exec(text.slice(i + 1, i + 1 + 400));
      if (value !== null) out[stack.length === 1 ? 0 : element] = value[1];
    } else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && stack.length === 1 && stack[0] === '[') element++;
  }
  return out;
}

/** Keeps, for the parsed message(s) `value` of the JSON text `text`, the text of each id a double may have rounded. */
export function keepIdTexts(value: unknown, text: string): void {
  const messages = Array.isArray(value) ? value : [value];
  if (!messages.some((m) => mayBeRounded(idOf(m)))) return;
  const texts = idTexts(text);
  messages.forEach((m, k) => {
    const t = texts[k];
    if (mayBeRounded(idOf(m)) && t !== undefined && Number(t) === idOf(m)) written.set(m as object, t);
  });
}

/** `answer` (a message of the proxy's own about `request`) with `request`'s id written as it came. */
export function withIdOf<T extends object>(answer: T, request: object): T {
  const t = written.get(request);
  if (t !== undefined) written.set(answer, t);
  return answer;
}

/** The id text kept for `m`, if any (to be given again with {@link keepIdText}). */
export function idTextOf(m: object): string | undefined {
  return written.get(m);
}

/** Keeps `text` as the written id of `m` (undefined: nothing kept). */
export function keepIdText(m: object, text: string | undefined): void {
  if (text !== undefined) written.set(m, text);
}

/** The JSON text of `m` (a message or a batch), each kept id written as it came, however deep `m` nests (json-text.ts). */
export function exactJson(m: object): string {
  const messages: unknown[] = Array.isArray(m) ? m : [m];
  if (!messages.some((x) => typeof x === 'object' && x !== null && written.has(x))) return jsonText(m) as string;
  const texts: string[] = [];
  let json: string;
  try {
    json = JSON.stringify(m, function (this: unknown, key: string, v: unknown) {
      if (key !== 'id' || typeof this !== 'object' || this === null) return v;
      const t = written.get(this);
      if (t === undefined) return v;
      texts.push(t);
      return `${MARK}${texts.length - 1}`;
    });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return walkText(m, (holder) => written.get(holder)) as string;
  }
  return json.replace(new RegExp(`"${MARK}(\\d+)"`, 'g'), (_, n: string) => texts[Number(n)] as string);
}
