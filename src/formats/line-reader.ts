/**
 * Splits an input's bytes into text lines with bounded memory: a line longer than the cap is reported and
 * skipped without being held whole, a line that is not valid UTF-8 is reported and skipped, a BOM opening
 * the first line is dropped and a CR before the LF is removed. Blank lines (ASCII white space only) are
 * counted and skipped in one pass over their bytes, without being made into lines: a gigabyte of newlines
 * costs what reading it costs.
 */
import { TrailingBytesError } from './gunzip-members.js';
import { NotAFileError } from './regular-file.js';
import { type TraceIssue, issue } from './trace-record.js';
import { type RawLine, type RouteGate, routedLine } from './routed-lines.js';

/** Default cap on the bytes of one line (and of one JSON element): 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** One line of text. */
export interface TextLine {
  readonly kind: 'line';
  /** The line without its line ending. */
  readonly text: string;
  /** 1-based line number. */
  readonly line: number;
}

/** Where the lines come from and how long one may be. */
export interface LineReaderOptions {
  /** Name of the input, for issues. */
  readonly file: string;
  /** Longest line kept, in bytes (a CR before the LF counted, the LF not); longer lines become `too-long` issues. */
  readonly maxLineBytes: number;
  /** While active, a line routed by its first bytes comes out undecoded (routed-lines.ts). @default never */
  readonly route?: RouteGate;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes one line's bytes as UTF-8; a BOM is dropped on line 1 only. Returns null when the bytes are not
 * valid UTF-8.
 */
export function decodeLine(bytes: Uint8Array, line: number): string | null {
  let start = 0;
  if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const end = bytes.length > start && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    return null;
  }
}

/** Whether `bytes` hold only ASCII white space (a blank line, its CR included). */
function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return true;
}

/**
 * The lines of `bytes` (blank ones left out, their numbers counted), and an issue for each line skipped; an
 * error of the input ends it with a `read-error` issue.
 */
export async function* readLines(bytes: AsyncIterable<Uint8Array>, options: Omit<LineReaderOptions, 'route'>): AsyncGenerator<TextLine | TraceIssue> {
  // no route: no line comes out undecoded
  for await (const batch of readLineBatches(bytes, options)) yield* batch as (TextLine | TraceIssue)[];
}

/**
 * Lines in one batch at most: batches of a whole 1 MiB read (~700 trace lines) kept every parsed record
 * alive until the last was taken in, and the collector then copied them out of the young generation
 * (`loopwatch scan` of the traces ~4% slower than batches of 64).
 */
export const LINES_PER_BATCH = 64;

/**
 * {@link readLines} a batch at a time: the lines ending in each chunk read, in arrays of at most
 * {@link LINES_PER_BATCH} (never empty). One step of the asynchronous iteration per batch rather than per
 * line: a line's own cost is then its decoding, not the promises and iterator results of the generators
 * it passes through.
 */
export async function* readLineBatches(bytes: AsyncIterable<Uint8Array>, options: LineReaderOptions): AsyncGenerator<(TextLine | TraceIssue | RawLine)[]> {
  const { file, maxLineBytes, route } = options;
  let parts: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1;
  const finish = (last: Uint8Array): TextLine | TraceIssue | RawLine | null => {
    const n = line++;
    if (tooLong || size + last.length > maxLineBytes) {
      const got = size + last.length;
      parts = [];
      size = 0;
      tooLong = false;
      return issue('too-long', file, n, `line of ${got} bytes is longer than maxLineBytes (${maxLineBytes}); skipped`);
    }
    const whole = parts.length === 0 ? last : Buffer.concat([...parts, last]);
    parts = [];
    size = 0;
    if (isBlank(whole)) return null;
    if (route?.active === true) {
      const raw = routedLine(whole, n, route.only);
      if (raw !== null) return raw;
    }
    const text = decodeLine(whole, n);
    return text === null ? issue('invalid-utf8', file, n, 'line is not valid UTF-8') : { kind: 'line', text, line: n };
  };
  try {
    for await (const chunk of bytes) {
      let out: (TextLine | TraceIssue | RawLine)[] = [];
      let pos = size === 0 && !tooLong ? skipBlank(chunk, 0) : 0;
      for (let nl = chunk.indexOf(LF, pos); nl !== -1; nl = chunk.indexOf(LF, pos)) {
        const l = finish(chunk.subarray(pos, nl));
        if (l !== null) out.push(l);
        if (out.length >= LINES_PER_BATCH) {
          yield out;
          out = [];
        }
        pos = skipBlank(chunk, nl + 1);
      }
      if (pos < chunk.length) keep(chunk.subarray(pos));
      if (out.length > 0) yield out;
    }
  } catch (e) {
    if (e instanceof NotAFileError) return yield [issue('not-a-file', file, 0, e.message)];
    if (e instanceof TrailingBytesError) {
      // the data before the junk is whole: its last line too
      const l = size > 0 || tooLong ? finish(new Uint8Array(0)) : null;
      yield [...(l === null ? [] : [l]), issue('read-error', file, 0, e.message)];
      return;
    }
    yield [issue('read-error', file, line, `input could not be read past this line: ${(e as Error).message ?? String(e)}`)];
    return;
  }
  const l = size > 0 || tooLong ? finish(new Uint8Array(0)) : null;
  if (l !== null) yield [l];

  /** Skips the blank lines starting at `from` (counting them); returns where the next line starts. */
  function skipBlank(chunk: Uint8Array, from: number): number {
    let start = from;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF) {
        line++;
        start = i + 1;
      } else if (b !== SPACE && b !== TAB && b !== CR) return start;
    }
    return start;
  }

  function keep(tail: Uint8Array): void {
    if (tooLong) {
      size += tail.length;
      return;
    }
    if (size + tail.length > maxLineBytes) {
      tooLong = true;
      parts = [];
      size += tail.length;
      return;
    }
    parts.push(Buffer.from(tail));
    size += tail.length;
  }
}
