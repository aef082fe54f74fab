/**
 * Reads one input through: bytes (gunzipped when they are gzip), layout, records, format (forced, or
 * detected from the first record that tells), and the format's reader. An input whose first record fits no
 * format is skipped with an `unknown-format` issue, and so is one read by a guess only (every record could
 * be several formats: a conversation without tool calls) that gave no call; other inputs carry on. Once
 * detected, a record plainly in another format is a `bad-record` issue rather than being misread. Every
 * input read ends with an `input-end` item.
 */
import { describe } from '../options/checks.js';
import { createAnthropicReader } from './anthropic.js';
import { isZipHead } from './archive-head.js';
import { unreadCompression } from './compressed-head.js';
import { createAtifReader } from './atif.js';
import { createClaudeCodeReader } from './claude-code.js';
import { createCodexReader } from './codex.js';
import { PEEK_BYTES, inputBytes, peekBytes } from './byte-source.js';
import { FORMAT_TITLES, KNOWN_FORMATS, detectFormat } from './detect-format.js';
import { detectLayout } from './detect-layout.js';
import { createEventsReader } from './events.js';
import { createGeminiCliReader } from './gemini-cli.js';
import type { FormatReader, InputName } from './format-reader.js';
import { createHookPayloadsReader } from './hook-payloads.js';
import { readEvalArchive } from './inspect-eval-archive.js';
import type { PassedOver } from './inspect-sample-copies.js';
import { createInspectLogReader } from './inspect-log.js';
import { isRecord } from './json-value.js';
import { createOpenAiChatReader } from './openai-chat.js';
import { createOpenAiResponsesReader } from './openai-responses.js';
import { createOpenHandsReader } from './openhands.js';
import { createOtelReader } from './otel-genai.js';
import { type RecordUnit, readRecordBatches } from './read-records.js';
import { streamedArchiveRecords } from './streamed-archive.js';
import { createSweAgentReader } from './swe-agent.js';
import { terminalBenchNote } from './terminal-bench-results.js';
import { type FormatName, type TraceIssue, type TraceItem, type TraceNote, issue } from './trace-record.js';
import type { RawLine, RouteFilter, RouteGate, ScanItem } from './routed-lines.js';

/** Skipped lines tolerated before the first readable record; past them the input is taken for no trace file. */
export const SNIFF_ISSUE_LIMIT = 100;

/** How to read one input. */
export interface ReadInputOptions {
  /** Read every record in this format instead of detecting it. */
  readonly format?: FormatName;
  /** Longest line or JSON element, in bytes. */
  readonly maxLineBytes: number;
  /** Hears of each chunk of the input's own bytes as it is read (compressed ones for gzip). */
  readonly onBytes?: (bytes: number) => void;
  /** Hears of the format found for the input (again when a later record makes it another). */
  readonly onFormat?: (file: string, format: FormatName) => void;
  /**
   * Once the input is known to be in the events format, hand its lines routed by their first bytes over as
   * TraceLine items, unread (routed-lines.ts): a scan with worker threads. @default false
   */
  readonly routeLines?: boolean;
  /** With `routeLines`, only these sessions' lines are handed over unread (the others are read). @default every session's */
  readonly routeOnly?: RouteFilter;
  /** Per `.eval` file, the samples it passes over as copies of a newer log's (inspect-sample-copies.ts). @default none */
  readonly passOver?: ReadonlyMap<string, PassedOver>;
}

export type { ScanItem } from './routed-lines.js';

/** A reader of `format` for `input`; `passOver`: the Inspect AI samples a JSON log of it passes over (inspect-sample-copies.ts). */
export function createReader(format: FormatName, input: InputName, passOver?: PassedOver): FormatReader {
  switch (format) {
    case 'events':
      return createEventsReader(input);
    case 'openai-chat':
      return createOpenAiChatReader();
    case 'openai-responses':
      return createOpenAiResponsesReader();
    case 'anthropic':
      return createAnthropicReader();
    case 'swe-agent':
      return createSweAgentReader(input);
    case 'claude-code':
      return createClaudeCodeReader(input);
    case 'codex':
      return createCodexReader(input);
    case 'otel':
      return createOtelReader(input);
    case 'hooks':
      return createHookPayloadsReader(input);
    case 'openhands':
      return createOpenHandsReader(input);
    case 'gemini-cli':
      return createGeminiCliReader(input);
    case 'atif':
      return createAtifReader();
    case 'inspect':
      return createInspectLogReader(passOver);
  }
}

/** What a record that fits no format looks like, for the issue. */
function shape(v: unknown): string {
  if (!isRecord(v)) return describe(v);
  const keys = Object.keys(v);
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 8).map((k) => JSON.stringify(k)).join(', ')}${keys.length > 8 ? ', ...' : ''}`;
}

/** What an input is read from: a file path, a stream, or the files of an input made of several (in order). */
export type InputSourceData = string | readonly string[] | NodeJS.ReadableStream;

const isParts = (s: InputSourceData): s is readonly string[] => Array.isArray(s);

/**
 * The items of one input (a file path, a stream, or the files of an input made of several, such as an
 * OpenHands events folder), then its `input-end`. The calls and session ends of an input made of several
 * files name the input (a call's line is then the position of its file among them); issues name the file.
 */
export async function* readInput(source: InputSourceData, input: InputName, options: Omit<ReadInputOptions, 'routeLines'>): AsyncGenerator<TraceItem> {
  // no routeLines: every call is read
  for await (const batch of readInputBatches(source, input, options)) yield* batch as TraceItem[];
}

/** {@link readInput} a batch at a time: the items of each batch of records (see `readRecordBatches`), as one array (never empty). */
export async function* readInputBatches(source: InputSourceData, input: InputName, options: ReadInputOptions): AsyncGenerator<ScanItem[]> {
  if (!isParts(source)) yield* inputItems(source, input, options);
  else {
    const position = new Map(source.map((part, i) => [part, i + 1]));
    for await (const batch of inputItems(source, input, options)) {
      yield batch.map((item) => (item.kind === 'call' ? { ...item, file: input.file, line: position.get(item.file) ?? item.line } : item.kind === 'end' ? { ...item, file: input.file } : item));
    }
  }
  yield [{ kind: 'input-end', file: input.file }];
}

/** The records of one file or stream (`file` names it), a batch at a time, with an issue for each line or element skipped. */
async function* recordsOf(source: string | NodeJS.ReadableStream, file: string, options: ReadInputOptions, route?: RouteGate): AsyncGenerator<(RecordUnit | TraceIssue | TraceNote | RawLine)[]> {
  const peeked = await peekBytes(inputBytes(source, options.onBytes));
  // the layout is judged on the first PEEK_BYTES whatever size the reads came in
  const look = peeked.head.subarray(0, PEEK_BYTES);
  const packed = unreadCompression(look);
  if (packed !== null) {
    await peeked.close();
    return yield [issue('read-error', file, 0, `${packed}-compressed, which loopwatch does not read (gzip it is): decompress it first (${packed === 'Zstandard' ? 'zstd -dc' : 'xz -dc'} FILE | loopwatch scan -); input skipped`)];
  }
  if (isZipHead(look)) {
    if (typeof source !== 'string') {
      // an archive's directory is at its end: a stream's is held whole (bounded), then read as a file is
      try {
        return yield* streamedArchiveRecords(peeked.all, file, { maxEntryBytes: options.maxLineBytes });
      } finally {
        await peeked.close();
      }
    }
    await peeked.close();
    // a file is read in place
    const onBytes = options.onBytes;
    const passOver = options.passOver?.get(file);
    // the peek's bytes were counted as they were read: the rest of the file is counted once it is read
    return yield* readEvalArchive(source, file, { maxEntryBytes: options.maxLineBytes, ...(passOver === undefined ? {} : { passOver }), ...(onBytes === undefined ? {} : { onBytes: (n: number) => onBytes(Math.max(0, n - peeked.head.length)) }) });
  }
  const layout = options.format === 'swe-agent' ? 'json' : detectLayout(look, peeked.complete && look.length === peeked.head.length, file);
  try {
    yield* readRecordBatches(peeked.all, { file, maxLineBytes: options.maxLineBytes, layout, ...(route === undefined ? {} : { route }) });
  } finally {
    await peeked.close();
  }
}

async function* inputItems(source: InputSourceData, input: InputName, options: ReadInputOptions): AsyncGenerator<ScanItem[]> {
  const { file } = input;
  const passOver = options.passOver?.get(file);
  let reader = options.format === undefined ? null : createReader(options.format, input, passOver);
  if (options.format !== undefined) options.onFormat?.(file, options.format);
  let current = options.format;
  let decided = options.format !== undefined;
  let skipped = 0;
  let calls = 0;
  // lines are routed (handed over unread) once the input is known to be in the events format
  const route: RouteGate | undefined = options.routeLines === true && !isParts(source) ? { active: false, ...(options.routeOnly === undefined ? {} : { only: options.routeOnly }) } : undefined;
  const records = isParts(source) ? source.map((part) => recordsOf(part, part, options)) : [recordsOf(source, file, options, route)];
  for (const batches of records) {
    for await (const units of batches) {
      const out: ScanItem[] = [];
      for (const unit of units) {
        if (unit.kind === 'raw') {
          calls++;
          out.push({ kind: 'line', session: unit.session, bytes: unit.bytes, file, line: unit.line });
          continue;
        }
        if (unit.kind === 'note') {
          out.push(unit);
          continue;
        }
        if (unit.kind === 'issue') {
          out.push(unit);
          if (reader === null && ++skipped >= SNIFF_ISSUE_LIMIT) {
            out.push(issue('unknown-format', file, 0, `no readable record in the first ${SNIFF_ISSUE_LIMIT} lines or elements; rest of the input skipped`));
            return yield out;
          }
          continue;
        }
        const guess = options.format === undefined ? detectFormat(unit.value, unit.file) : null;
        if (!decided) {
          if (guess === null && reader === null) {
            // a harness's document known to hold no calls: said for what it is, not an unknown format
            const known = terminalBenchNote(unit.value);
            if (known !== null) {
              out.push({ kind: 'note', file: unit.file, line: unit.line, message: known });
              return yield out;
            }
            out.push(issue('unknown-format', unit.file, unit.line, `the first record is ${shape(unit.value)}, not ${KNOWN_FORMATS}; input skipped`));
            return yield out;
          }
          if (guess !== null) {
            if (guess.format !== current) {
              reader = createReader(guess.format, input, passOver);
              options.onFormat?.(file, guess.format);
            }
            current = guess.format;
            decided = guess.decisive;
          }
        } else if (guess !== null && guess.decisive && guess.format !== current) {
          out.push(issue('bad-record', unit.file, unit.line, `record is in the ${guess.format} format, but the input was found to be ${current}; skipped`));
          continue;
        }
        for (const item of reader!.record(unit)) {
          if (item.kind === 'call') calls++;
          out.push(item);
        }
        if (route !== undefined) route.active = decided && current === 'events';
      }
      if (out.length > 0) yield out;
    }
  }
  if (reader !== null) {
    const rest = [...reader.finish()];
    calls += rest.filter((i) => i.kind === 'call').length;
    // read by a guess only (no record carried a mark of the format) and nothing found: say so, not vanish
    if (!decided && calls === 0 && current !== undefined) rest.push(issue('unknown-format', file, 0, `no record carried a mark of a known format (a tool call, a result, a line type) and reading it as ${FORMAT_TITLES[current]} found no call; input skipped`));
    if (rest.length > 0) yield rest;
  }
}
