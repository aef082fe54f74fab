/**
 * Gemini CLI chats and checkpoints, in each shape the CLI has written them:
 *
 * - a chat as one JSON document (`chats/session-<time>-<id>.json`, and a subagent's
 *   `chats/<parent>/<id>.json`): `{sessionId, projectHash, startTime, lastUpdated, messages, kind?}`;
 * - a chat as JSON Lines (`.jsonl`, newer versions): a first line `{sessionId, projectHash, ...}`, then each
 *   message as it is recorded and again each time it changes, `{$set: {...}}` metadata updates (one may
 *   carry every message again) and `{$rewindTo: id}` (the user rewound the conversation: the calls made
 *   before the rewind were made all the same, so they stay);
 * - a checkpoint (`checkpoint-<tag>.json`): Gemini API contents, `[{role, parts}]` or `{history: [...]}`
 *   (gemini-checkpoint.ts);
 * - the prompt log beside the chats (`logs.json`, `[{sessionId, messageId, type, message, timestamp}]`):
 *   the prompts typed, no calls; passed over.
 *
 * The messages are read by gemini-chat.ts. The session is the chat's `sessionId` (a subagent's own id),
 * else the input's name.
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import { isGeminiLogEntry } from './detect-format.js';
import { GeminiChat } from './gemini-chat.js';
import { readGeminiCheckpoint } from './gemini-checkpoint.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { type TraceItem, issue } from './trace-record.js';

/** A non-empty string, or undefined. */
const idOf = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A reader of Gemini CLI chats and checkpoints for `input`. */
export function createGeminiCliReader(input: InputName): FormatReader {
  /** The chat of a JSON Lines input, named by its first line. */
  let stream: GeminiChat | null = null;
  let name: string | undefined;
  const chat = (): GeminiChat => (stream ??= new GeminiChat(name ?? input.name));

  /** A chat written as one document: its own session. */
  function* document(v: Record<string, unknown>, unit: RecordUnit): Generator<TraceItem> {
    const c = new GeminiChat(idOf(v.sessionId) ?? unit.fallbackSession);
    const messages = v.messages as unknown[];
    for (let i = 0; i < messages.length; i++) yield* c.message(messages[i], unit, `message ${i}: `);
    yield* c.calls.releaseAll();
    yield { kind: 'end', session: c.calls.session, file: unit.file };
  }

  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const v = unit.value;
      if (Array.isArray(v)) return v.every(isGeminiLogEntry) ? undefined : yield* readGeminiCheckpoint(v, unit); // logs.json: prompts only
      if (!isRecord(v)) return yield issue('bad-record', unit.file, unit.line, `expected a Gemini CLI chat, message or checkpoint (an object or an array of contents), received ${describe(v)}; skipped`);
      if (Array.isArray(v.messages)) return yield* document(v, unit);
      if (Array.isArray(v.history)) return yield* readGeminiCheckpoint(v.history, unit);
      if (v.$rewindTo !== undefined) return;
      if (v.$set !== undefined) {
        if (!isRecord(v.$set)) return yield issue('bad-record', unit.file, unit.line, `"$set" must be an object, received ${describe(v.$set)}; skipped`);
        const messages = v.$set.messages;
        if (!Array.isArray(messages)) return;
        for (let i = 0; i < messages.length; i++) yield* chat().message(messages[i], unit, `$set message ${i}: `);
        return;
      }
      if (typeof v.type === 'string') return yield* chat().message(v, unit, '');
      if (idOf(v.sessionId) !== undefined) {
        name ??= idOf(v.sessionId); // the first line: the chat's metadata
        return;
      }
      yield issue('bad-record', unit.file, unit.line, `expected a Gemini CLI message (an object with a "type"), metadata (a "sessionId") or update ("$set", "$rewindTo"), received an object with neither; skipped`);
    },
    *finish(): Generator<TraceItem> {
      if (stream === null) return;
      yield* stream.calls.releaseAll();
      yield { kind: 'end', session: stream.calls.session, file: input.file };
    },
  };
}
