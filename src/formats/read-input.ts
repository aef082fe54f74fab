/**
 * Reads one input through: bytes (gunzipped when they are gzip), layout, records, format (forced, or
 * detected from the first record that tells), and the format's reader. An input whose first record fits no
 * format is skipped with an `unknown-format` issue; other inputs carry on. Once detected, a record plainly
 * in another format is a `bad-record` issue rather than being misread. Every input read ends with an
 * `input-end` item.
 */
import { describe } from '../options/checks.js';
import { createAnthropicReader } from './anthropic.js';
import { createClaudeCodeReader } from './claude-code.js';
import { createCodexReader } from './codex.js';
import { inputBytes, peekBytes } from './byte-source.js';
import { KNOWN_FORMATS, detectFormat } from './detect-format.js';
import { detectLayout } from './detect-layout.js';
import { createEventsReader } from './events.js';
import type { FormatReader, InputName } from './format-reader.js';
import { createHookPayloadsReader } from './hook-payloads.js';
import { isRecord } from './json-value.js';
import { createOpenAiChatReader } from './openai-chat.js';
import { createOpenAiResponsesReader } from './openai-responses.js';
import { createOtelReader } from './otel-genai.js';
import { readRecords } from './read-records.js';
import { createSweAgentReader } from './swe-agent.js';
import { type FormatName, type TraceItem, issue } from './trace-record.js';

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
}

/** A reader of `format` for `input`. */
export function createReader(format: FormatName, input: InputName): FormatReader {
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
  }
}

/** What a record that fits no format looks like, for the issue. */
function shape(v: unknown): string {
  if (!isRecord(v)) return describe(v);
  const keys = Object.keys(v);
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 8).map((k) => JSON.stringify(k)).join(', ')}${keys.length > 8 ? ', ...' : ''}`;
}

/** The items of one input (a file path or a stream), then its `input-end`. */
export async function* readInput(source: string | NodeJS.ReadableStream, input: InputName, options: ReadInputOptions): AsyncGenerator<TraceItem> {
  yield* inputItems(source, input, options);
  yield { kind: 'input-end', file: input.file };
}

async function* inputItems(source: string | NodeJS.ReadableStream, input: InputName, options: ReadInputOptions): AsyncGenerator<TraceItem> {
  const { file } = input;
  const peeked = await peekBytes(inputBytes(source, options.onBytes));
  const layout = options.format === 'swe-agent' ? 'json' : detectLayout(peeked.head, peeked.complete, file);
  let reader = options.format === undefined ? null : createReader(options.format, input);
  let current = options.format;
  let decided = options.format !== undefined;
  let skipped = 0;
  try {
    for await (const unit of readRecords(peeked.all, { file, maxLineBytes: options.maxLineBytes, layout })) {
      if (unit.kind === 'issue') {
        yield unit;
        if (reader === null && ++skipped >= SNIFF_ISSUE_LIMIT) {
          return yield issue('unknown-format', file, 0, `no readable record in the first ${SNIFF_ISSUE_LIMIT} lines or elements; rest of the input skipped`);
        }
        continue;
      }
      const guess = options.format === undefined ? detectFormat(unit.value, file) : null;
      if (!decided) {
        if (guess === null && reader === null) {
          return yield issue('unknown-format', file, unit.line, `the first record is ${shape(unit.value)}, not ${KNOWN_FORMATS}; input skipped`);
        }
        if (guess !== null) {
          if (guess.format !== current) reader = createReader(guess.format, input);
          current = guess.format;
          decided = guess.decisive;
        }
      } else if (guess !== null && guess.decisive && guess.format !== current) {
        yield issue('bad-record', file, unit.line, `record is in the ${guess.format} format, but the input was found to be ${current}; skipped`);
        continue;
      }
      yield* reader!.record(unit);
    }
    if (reader !== null) yield* reader.finish();
  } finally {
    await peeked.close();
  }
}
