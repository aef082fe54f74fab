/**
 * Splits a stream of JSON text into its top-level values, and each top-level array into its elements, so
 * that a huge JSON-array file is never held whole: only the element being read is (up to the cap).
 *
 * The splitter tracks strings, escapes and bracket depth only; each piece's text is checked by `JSON.parse`
 * afterwards. A raw line break ends a string (JSON forbids one there), so a truncated line spoils one piece,
 * not the rest of the input.
 *
 * ```
 *  [ {..}, {..}, 3 ]   {..}   "x"      <- top-level values
 *    '--'  '--'  '     '--'   '-'
 *    element 0,1,2     value  value    then 'array-end' after the ']'
 * ```
 */
import { TrailingBytesError } from './gunzip-members.js';
import { NotAFileError } from './regular-file.js';
import { type TraceIssue, issue } from './trace-record.js';

/** A piece of the JSON text: a top-level value that is not an array, an element of a top-level array, or an array's end. */
export type JsonPiece =
  | { readonly kind: 'value'; readonly text: string; readonly line: number }
  | { readonly kind: 'element'; readonly text: string; readonly line: number; readonly index: number; readonly arrayLine: number }
  | { readonly kind: 'array-end'; readonly arrayLine: number; readonly count: number; readonly closed: boolean };

/** Where the splitter is: between top-level values, between array elements, in an element, in a value, skipping a bad line. */
const Mode = { Top: 0, Array: 1, Element: 2, Value: 3, SkipLine: 4 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = [0xef, 0xbb, 0xbf];

/** Push-style splitter: feed it chunks, take the pieces and issues each chunk completes. */
export class JsonSplitter {
  private mode: Mode = Mode.Top;
  private line = 1;
  private depth = 0;
  private inString = false;
  private escape = false;
  private parts: Uint8Array[] = [];
  private size = 0;
  private tooLong = false;
  private pieceLine = 0;
  private arrayLine = 0;
  private index = 0;
  /** How many bytes of a BOM opening the input have been seen; -1 once past it. */
  private bom = 0;

  /** `file` names the input in issues; `maxBytes` caps one piece's bytes. */
  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {}

  /** Reads one chunk; returns what it completed. */
  push(chunk: Uint8Array): (JsonPiece | TraceIssue)[] {
    const out: (JsonPiece | TraceIssue)[] = [];
    let i = 0;
    while (this.bom >= 0 && i < chunk.length) {
      if (chunk[i] !== BOM[this.bom]) {
        this.bom = -1;
        break;
      }
      i++;
      this.bom = this.bom === BOM.length - 1 ? -1 : this.bom + 1;
    }
    let seg = this.mode === Mode.Element || this.mode === Mode.Value ? i : -1;
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      switch (this.mode) {
        case Mode.SkipLine:
          if (b === 0x0a) {
            this.line++;
            this.mode = Mode.Top;
          }
          continue;
        case Mode.Top:
          if (isSpace(b)) {
            if (b === 0x0a) this.line++;
            continue;
          }
          if (b === 0x5b) {
            this.mode = Mode.Array;
            this.arrayLine = this.line;
            this.index = 0;
            continue;
          }
          if (b === 0x5d || b === 0x7d || b === 0x2c || b === 0x3a) {
            out.push(issue('invalid-json', this.file, this.line, `unexpected '${String.fromCharCode(b)}' between top-level values; rest of the line skipped`));
            this.mode = Mode.SkipLine;
            continue;
          }
          this.begin(Mode.Value);
          seg = i;
          break;
        case Mode.Array:
          if (isSpace(b)) {
            if (b === 0x0a) this.line++;
            continue;
          }
          if (b === 0x5d) {
            out.push({ kind: 'array-end', arrayLine: this.arrayLine, count: this.index, closed: true });
            this.mode = Mode.Top;
            continue;
          }
          if (b === 0x2c || b === 0x7d) {
            out.push(issue('invalid-json', this.file, this.line, `element ${this.index} of the array at line ${this.arrayLine} is missing (unexpected '${String.fromCharCode(b)}')`));
            if (b === 0x2c) this.index++;
            continue;
          }
          this.begin(Mode.Element);
          seg = i;
          break;
        default:
          break;
      }
      // collecting an element or a top-level value
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === 0x5c) this.escape = true;
        else if (b === 0x22) this.inString = false;
        else if (b === 0x0a) {
          this.line++;
          this.inString = false;
        }
        continue;
      }
      if (b === 0x22) this.inString = true;
      else if (b === 0x5b || b === 0x7b) this.depth++;
      else if (b === 0x5d || b === 0x7d) {
        if (this.depth > 0) {
          this.depth--;
          if (this.mode === Mode.Value && this.depth === 0) {
            this.end(out, chunk.subarray(seg, i + 1));
            this.mode = Mode.Top;
          }
        } else if (this.mode === Mode.Element) {
          this.end(out, chunk.subarray(seg, i));
          if (b === 0x7d) out.push(issue('invalid-json', this.file, this.line, `array at line ${this.arrayLine} closed by '}'`));
          out.push({ kind: 'array-end', arrayLine: this.arrayLine, count: this.index, closed: b === 0x5d });
          this.mode = Mode.Top;
        } else {
          this.end(out, chunk.subarray(seg, i + 1));
          this.mode = Mode.Top;
        }
      } else if (this.depth === 0 && this.mode === Mode.Element && b === 0x2c) {
        this.end(out, chunk.subarray(seg, i));
        this.mode = Mode.Array;
      } else if (this.depth === 0 && this.mode === Mode.Value && isSpace(b)) {
        this.end(out, chunk.subarray(seg, i));
        this.mode = Mode.Top;
      }
      if (b === 0x0a) this.line++;
    }
    if (this.mode === Mode.Element || this.mode === Mode.Value) this.keep(chunk.subarray(Math.max(seg, 0)));
    return out;
  }

  /** The input ended: what is left, and issues for anything left open. */
  finish(): (JsonPiece | TraceIssue)[] {
    const out: (JsonPiece | TraceIssue)[] = [];
    if (this.mode === Mode.Value && this.depth === 0) this.end(out, new Uint8Array(0));
    else if (this.mode === Mode.Value) {
      out.push(issue('invalid-json', this.file, this.pieceLine, `input ends before the value that starts at line ${this.pieceLine} is closed`));
    } else if (this.mode === Mode.Element || this.mode === Mode.Array) {
      const where = this.mode === Mode.Element ? this.pieceLine : this.line;
      out.push(issue('invalid-json', this.file, where, `input ends before the array that starts at line ${this.arrayLine} is closed${this.mode === Mode.Element ? `; element ${this.index} is incomplete` : ''}`));
      out.push({ kind: 'array-end', arrayLine: this.arrayLine, count: this.index + (this.mode === Mode.Element ? 1 : 0), closed: false });
    }
    this.mode = Mode.Top;
    this.parts = [];
    return out;
  }

  /** The line the splitter has reached. */
  get currentLine(): number {
    return this.line;
  }

  /** After an input error: closes an open array (as not closed) so that what was read of it is kept. */
  abort(): JsonPiece[] {
    const open = this.mode === Mode.Array || this.mode === Mode.Element;
    this.mode = Mode.Top;
    this.parts = [];
    return open ? [{ kind: 'array-end', arrayLine: this.arrayLine, count: this.index, closed: false }] : [];
  }

  private begin(mode: typeof Mode.Element | typeof Mode.Value): void {
    this.mode = mode;
    this.pieceLine = this.line;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.parts = [];
    this.size = 0;
    this.tooLong = false;
  }

  private keep(bytes: Uint8Array): void {
    this.size += bytes.length;
    if (this.tooLong) return;
    if (this.size > this.maxBytes) {
      this.tooLong = true;
      this.parts = [];
      return;
    }
    this.parts.push(Buffer.from(bytes));
  }

  private end(out: (JsonPiece | TraceIssue)[], last: Uint8Array): void {
    const element = this.mode === Mode.Element;
    const what = element ? `element ${this.index} of the array at line ${this.arrayLine}` : 'value';
    const index = this.index;
    if (element) this.index++;
    const size = this.size + last.length;
    const parts = this.parts;
    this.parts = [];
    if (this.tooLong || size > this.maxBytes) {
      out.push(issue('too-long', this.file, this.pieceLine, `${what} of ${size} bytes is longer than maxLineBytes (${this.maxBytes}); skipped`));
      return;
    }
    let text: string;
    try {
      text = decoder.decode(parts.length === 0 ? last : Buffer.concat([...parts, last]));
    } catch {
      out.push(issue('invalid-utf8', this.file, this.pieceLine, `${what} is not valid UTF-8`));
      return;
    }
    out.push(element ? { kind: 'element', text, line: this.pieceLine, index, arrayLine: this.arrayLine } : { kind: 'value', text, line: this.pieceLine });
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** The pieces of `bytes` with an issue for each one skipped; an input error ends it with a `read-error` issue. */
export async function* splitJson(bytes: AsyncIterable<Uint8Array>, options: { readonly file: string; readonly maxLineBytes: number }): AsyncGenerator<JsonPiece | TraceIssue> {
  const splitter = new JsonSplitter(options.file, options.maxLineBytes);
  try {
    for await (const chunk of bytes) yield* splitter.push(chunk);
  } catch (e) {
    if (e instanceof NotAFileError) return yield issue('not-a-file', options.file, 0, e.message);
    if (e instanceof TrailingBytesError) {
      yield* splitter.finish();
      return yield issue('read-error', options.file, 0, e.message);
    }
    yield issue('read-error', options.file, splitter.currentLine, `input could not be read past this line: ${(e as Error).message ?? String(e)}`);
    yield* splitter.abort();
    return;
  }
  yield* splitter.finish();
}
