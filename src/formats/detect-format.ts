/**
 * Which trace format a record is in, from its shape. A guess is `decisive` when the record carries a mark
 * only one format has (OpenAI `tool_calls`, Anthropic `tool_use` blocks, Responses `function_call` items,
 * ...); a conversation without any tool traffic reads the same in every chat format, so it only gives a
 * tentative guess and the next record is looked at too.
 */
import { isAtifTrajectory } from './atif.js';
import { isInspectLog } from './inspect-log.js';
import { isWorkflowJournalLine } from './claude-code-sessions.js';
import { isRecord } from './json-value.js';
import { isOpenHandsSdkEvent } from './openhands-sdk.js';
import { TRAJ_FILE } from './detect-layout.js';
import { resourceList } from './otlp-json.js';
import { FORMAT_NAMES, type FormatName } from './trace-record.js';

/** A format guess for one record. */
export interface FormatGuess {
  readonly format: FormatName;
  /** False when other chat formats would read the record the same (it has no tool calls or results). */
  readonly decisive: boolean;
}

/** What each format is called in messages, in the order of {@link FORMAT_NAMES}. */
export const FORMAT_TITLES: Readonly<Record<FormatName, string>> = {
  events: 'loopwatch events',
  'openai-chat': 'OpenAI chat',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  'swe-agent': 'SWE-agent',
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  otel: 'OpenTelemetry spans (OTLP/JSON)',
  hooks: 'hook payloads',
  openhands: 'OpenHands events',
  'gemini-cli': 'Gemini CLI chats',
  atif: 'ATIF trajectories (Harbor)',
  inspect: 'Inspect AI eval logs (JSON)',
};

/** The formats by title, for an input none of them fits: "a, b, ... or z". */
export const KNOWN_FORMATS = ((t: string[]) => `${t.slice(0, -1).join(', ')} or ${t.at(-1)!}`)(FORMAT_NAMES.map((f) => FORMAT_TITLES[f]));

/** Line types of a Claude Code transcript that need no `sessionId` to be told apart. */
const CLAUDE_CODE_LINES = new Set(['summary', 'file-history-snapshot', 'queue-operation']);
/** Line types of a Codex CLI rollout (each with a `payload`). */
const CODEX_LINES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

const RESPONSES_ITEMS = new Set(['function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'reasoning']);
const RESPONSES_PARTS = new Set(['output_text', 'input_text', 'refusal']);
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** Whether `m` is a Gemini API content with a mark of one: a `model` turn, or a function call or response among its parts. */
function isGeminiContent(m: Readonly<Record<string, unknown>>): boolean {
  return Array.isArray(m.parts) && (m.role === 'model' || m.parts.some((p) => isRecord(p) && (isRecord(p.functionCall) || isRecord(p.functionResponse))));
}

/** Whether `m` is an entry of Gemini CLI's `logs.json` (the prompts typed): `{sessionId, messageId, type, message, timestamp}`. */
export function isGeminiLogEntry(m: unknown): boolean {
  return isRecord(m) && typeof m.sessionId === 'string' && typeof m.messageId === 'number' && typeof m.message === 'string';
}

/** The format a message or item says it is in, if it carries a mark of one. */
function markOf(m: unknown): FormatName | null {
  if (!isRecord(m)) return null;
  if (m.type === 'gemini' || isGeminiContent(m) || isGeminiLogEntry(m)) return 'gemini-cli';
  if (Array.isArray(m.tool_calls) || m.role === 'tool' || m.role === 'function' || isRecord(m.function_call)) return 'openai-chat';
  if (typeof m.type === 'string' && RESPONSES_ITEMS.has(m.type)) return 'openai-responses';
  if (Array.isArray(m.content)) {
    for (const part of m.content) {
      if (!isRecord(part) || typeof part.type !== 'string') continue;
      if (ANTHROPIC_BLOCKS.has(part.type)) return 'anthropic';
      if (RESPONSES_PARTS.has(part.type)) return 'openai-responses';
    }
  }
  return null;
}

/** A guess from the parts of a conversation (messages or items); `fallback` when none carries a mark. */
function fromParts(parts: readonly unknown[], fallback: FormatName): FormatGuess | null {
  let known = false;
  for (const m of parts) {
    const mark = markOf(m);
    if (mark !== null) return { format: mark, decisive: true };
    if (isRecord(m) && (typeof m.role === 'string' || typeof m.type === 'string')) known = true;
  }
  return known || parts.length === 0 ? { format: fallback, decisive: false } : null;
}

/**
 * The format of `value`, a record of the input `file`, or null when no format fits:
 * `.traj` files and objects with a `trajectory` are SWE-agent; objects with a string `tool` are loopwatch
 * events; an `ATIF-v...` `schema_version` with `steps` is an ATIF trajectory, an `eval`
 * object with `samples` an Inspect AI eval log; `messages` are OpenAI chat or Anthropic (by their marks, OpenAI chat when none); `input`,
 * `output` or `items` arrays are OpenAI Responses; a bare array is judged by its parts. Lines of the
 * streamed formats: a `type` with a `sessionId` (or a `summary`, `file-history-snapshot` or
 * `queue-operation` line) is a Claude Code transcript; a `session_meta`, `response_item`, `event_msg`,
 * `turn_context` or `compacted` line with a `payload` (or a 2025 rollout's first line, `{id, timestamp,
 * instructions}`) is a Codex CLI rollout; an object with a `resourceSpans` array is an OTLP/JSON trace export,
 * one with a `batches` array of span resources (or either under `trace`) a Grafana Tempo trace;
 * one with a string `hook_event_name` is a hook payload; an `action` or `observation` with its `source` is an
 * OpenHands event, and so is an event of the OpenHands SDK (a known `kind` with its `source` and `id`), and an `instance_id` (evaluation) or `issue` (resolver) with a `history` of actions and
 * observations (with their source or, older, flattened without it) an OpenHands output line.
 */
export function detectFormat(value: unknown, file: string): FormatGuess | null {
  if (TRAJ_FILE.test(file)) return { format: 'swe-agent', decisive: true };
  if (Array.isArray(value)) return value.length === 0 ? null : fromParts(value, 'openai-chat');
  if (!isRecord(value)) return null;
  if (Array.isArray(value.trajectory)) return { format: 'swe-agent', decisive: true };
  if (typeof value.tool === 'string') return { format: 'events', decisive: true };
  if (isAtifTrajectory(value)) return { format: 'atif', decisive: true };
  if (isInspectLog(value)) return { format: 'inspect', decisive: true };
  if (isGeminiChat(value)) return { format: 'gemini-cli', decisive: true };
  if (Array.isArray(value.messages)) return fromParts(value.messages, value.system !== undefined ? 'anthropic' : 'openai-chat');
  if (Array.isArray(value.items) || Array.isArray(value.input) || Array.isArray(value.output)) return { format: 'openai-responses', decisive: true };
  return streamedFormat(value);
}

/**
 * Whether `value` is a Gemini CLI chat or a line of one: `sessionId` and `projectHash` (the document, or the
 * first line of a JSON Lines chat), a `gemini` message, or a checkpoint `{history}` of contents.
 */
function isGeminiChat(value: Readonly<Record<string, unknown>>): boolean {
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') return true;
  if (value.type === 'gemini' && typeof value.id === 'string') return true;
  return Array.isArray(value.history) && value.history.some((c) => isRecord(c) && isGeminiContent(c));
}

/** Whether `e` is an OpenHands event: an action or observation with its source. */
function isOpenHandsEvent(e: unknown): boolean {
  return isRecord(e) && typeof e.source === 'string' && (typeof e.action === 'string' || typeof e.observation === 'string');
}

/**
 * An OTLP/JSON export (`resourceSpans`), or a Grafana Tempo trace (`batches`, or either under `trace`) whose
 * first resource holds span scopes or a resource (an empty one tells nothing yet).
 */
function otelGuess(value: Record<string, unknown>): FormatGuess | null {
  if (Array.isArray(value.resourceSpans)) return { format: 'otel', decisive: true };
  const found = resourceList(value);
  if (found === null) return null;
  const [first] = found.list;
  if (first === undefined) return { format: 'otel', decisive: false };
  return isRecord(first) && (Array.isArray(first.scopeSpans) || Array.isArray(first.instrumentationLibrarySpans) || isRecord(first.resource)) ? { format: 'otel', decisive: true } : null;
}

/** Whether `e` is an event of an output line's history: an action or observation (flattened, older ones have no source). */
function isHistoryEvent(e: unknown): boolean {
  return isRecord(e) && (typeof e.action === 'string' || typeof e.observation === 'string');
}

/** The line-per-event formats: each line says which it is. */
function streamedFormat(value: Record<string, unknown>): FormatGuess | null {
  const otel = otelGuess(value);
  if (otel !== null) return otel;
  if (typeof value.hook_event_name === 'string') return { format: 'hooks', decisive: true };
  if (isOpenHandsEvent(value) || isOpenHandsSdkEvent(value)) return { format: 'openhands', decisive: true };
  if (Array.isArray(value.history) && (typeof value.instance_id === 'string' || typeof value.instance_id === 'number' || isRecord(value.issue))) {
    if (value.history.length === 0) return { format: 'openhands', decisive: false };
    if (value.history.some(isHistoryEvent)) return { format: 'openhands', decisive: true };
  }
  const type = value.type;
  if (typeof type === 'string' && (typeof value.sessionId === 'string' || CLAUDE_CODE_LINES.has(type) || isWorkflowJournalLine(value))) return { format: 'claude-code', decisive: true };
  if (typeof type === 'string' && CODEX_LINES.has(type) && isRecord(value.payload)) return { format: 'codex', decisive: true };
  if (type === undefined && typeof value.id === 'string' && typeof value.timestamp === 'string' && 'instructions' in value) return { format: 'codex', decisive: true };
  if (type === undefined && value.record_type === 'state') return { format: 'codex', decisive: false };
  return null;
}
