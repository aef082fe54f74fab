/**
 * The model turn of a hooked call, read from the agent's transcript, where the payload does not carry it.
 * Calls of one turn were decided together, before the model read a verdict on any of them; the policy
 * warns about such a call at most (src/policy/verdict-policy.ts `unreadVerdict`) and counts a signal's
 * repetitions in turns (src/policy/turns.ts). `loopwatch eval` knows the turns from the transcript; a hook
 * gets the call's id and the transcript's path, and reads the transcript's tail for the turn:
 *
 * | agent       | payload's id   | the call in the transcript                               | its turn                     |
 * |-------------|----------------|----------------------------------------------------------|------------------------------|
 * | claude-code | `tool_use_id`  | an `assistant` line whose content has `tool_use` {id}    | the line's `message.id` (the blocks of one answer share it; a subagent's calls are in its own transcript, `<session>/subagents/agent-<agent_id>.jsonl`, before 2.1 `agent-<agent_id>.jsonl` beside the session's) |
 * | codex       | `tool_use_id`  | a `response_item` call (`function_call`, ...) {call_id}   | the run of assistant items it is in, between tool outputs or a user's message (as the rollout reader counts rounds, src/formats/codex.ts), named by its first call's id |
 * | gemini      | none           | -                                                        | not read (BeforeTool names no call) |
 *
 * Bounded and fail-open: at most TURN_LOOK bytes of the transcript's end are read (transcript-part.ts: never
 * blocks), at most MAX_LINES candidate lines parsed; a call not found there (not yet written, a line longer
 * than the tail, an unreadable file) has no turn known, and the hook decides as without one. `turn_id` in
 * Codex's payload names the user's turn (every model request until the answer), not the model's: not used.
 */
import { dirname, join } from 'node:path';
import { hashString } from '../fingerprint/canonical-hash.js';
import { readTranscriptPart, type TranscriptPart } from './transcript-part.js';
import type { TranscriptTrust } from './transcript-open.js';

/** Bytes of a transcript's end read for a call's turn. */
export const TURN_LOOK = 256 * 1024;
/** Lines naming the call's id parsed at most (its call, its result, the agent's progress lines). */
const MAX_LINES = 16;
/** A subagent id as Claude Code writes it into its transcript's name (no path separators). */
const AGENT_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Codex rollout items that are calls, and those that answer one (src/formats/codex.ts). */
const CODEX_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const CODEX_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);

/** A turn's number: a 32-bit fingerprint of its name (non-negative, apart from the in-flight turns' negative numbers). */
function turnNumber(name: string): number {
  return hashString(name) >>> 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The line of `part` (its start and end) holding `needle` at `at`, or null for a line cut by the tail's start. */
function lineAt(part: TranscriptPart, at: number): { start: number; end: number; value: unknown } | null {
  const start = part.text.lastIndexOf('\n', at) + 1;
  let end = part.text.indexOf('\n', at);
  if (end < 0) end = part.text.length;
  if (start === 0 && part.from > 0) return null;
  try {
    return { start, end, value: JSON.parse(part.text.slice(start, end)) };
  } catch {
    return { start, end, value: undefined };
  }
}

/**
 * The first parsed line from the end of `part` holding `needle` that `fits`, with its start; null when none
 * (at most MAX_LINES lines holding `needle` are parsed; a line cut by the tail's start ends the search).
 */
export function lastLine(part: TranscriptPart, needle: string, fits: (v: unknown) => boolean): { start: number; value: unknown } | null {
  let before = part.text.length;
  for (let n = 0; n < MAX_LINES && before >= 0; n++) {
    const at = part.text.lastIndexOf(needle, before);
    if (at < 0) return null;
    const line = lineAt(part, at);
    if (line === null) return null;
    if (fits(line.value)) return { start: line.start, value: line.value };
    before = line.start - 1;
  }
  return null;
}

/**
 * Where a Claude Code call's own transcript may be: the session's; a subagent's beside it, under
 * `<session>/subagents/` (from 2.1) or, before, in the project's folder (`agent-<id>.jsonl`).
 */
function claudeCodeTranscripts(p: Readonly<Record<string, unknown>>): readonly string[] {
  const path = p.transcript_path;
  if (typeof path !== 'string' || !path.endsWith('.jsonl')) return [];
  const agent = p.agent_id;
  if (agent === undefined || agent === null || agent === '') return [path];
  if (typeof agent !== 'string' || !AGENT_ID.test(agent)) return [];
  return [`${path.slice(0, -'.jsonl'.length)}/subagents/agent-${agent}.jsonl`, join(dirname(path), `agent-${agent}.jsonl`)];
}

/** The model turn of a Claude Code payload's call (`message.id` of its `tool_use`), or undefined (see the header). */
export function claudeCodeTurn(p: Readonly<Record<string, unknown>>, trust: TranscriptTrust = 'agent'): number | undefined {
  const id = p.tool_use_id;
  if (typeof id !== 'string' || id === '') return undefined;
  const holds = (v: unknown): boolean => {
    if (!isRecord(v) || v.type !== 'assistant' || !isRecord(v.message) || typeof v.message.id !== 'string') return false;
    const content = v.message.content;
    return Array.isArray(content) && content.some((b) => isRecord(b) && b.type === 'tool_use' && b.id === id);
  };
  for (const path of claudeCodeTranscripts(p)) {
    const part = readTranscriptPart(path, 'tail', TURN_LOOK, trust);
    if (part === null) continue;
    const line = lastLine(part, JSON.stringify(id), holds);
    if (line !== null) return turnNumber(`claude-code:${String((line.value as { message: { id: string } }).message.id)}`);
  }
  return undefined;
}

/** Rollout lines that hold no item (src/formats/codex.ts passes them over). */
const CODEX_NOT_ITEMS = new Set(['session_meta', 'event_msg', 'turn_context', 'compacted']);

/** A Codex rollout line's item (`response_item` payload; a 2025 rollout's bare item), or undefined. */
function codexItem(v: unknown): Record<string, unknown> | undefined {
  if (!isRecord(v) || typeof v.type !== 'string') return undefined;
  if (v.type === 'response_item') return isRecord(v.payload) ? v.payload : undefined;
  return CODEX_NOT_ITEMS.has(v.type) ? undefined : v;
}

const callIdOf = (it: Record<string, unknown>): unknown => it.call_id ?? it.id;

/** The model turn of a Codex payload's call (its run of assistant items, named by the run's first call), or undefined. */
export function codexTurn(p: Readonly<Record<string, unknown>>, trust: TranscriptTrust = 'agent'): number | undefined {
  const id = p.tool_use_id;
  if (typeof id !== 'string' || id === '') return undefined;
  const part = readTranscriptPart(p.transcript_path, 'tail', TURN_LOOK, trust);
  if (part === null) return undefined;
  const isCall = (v: unknown): boolean => {
    const it = codexItem(v);
    return it !== undefined && CODEX_CALLS.has(it.type as string) && callIdOf(it) === id;
  };
  const line = lastLine(part, JSON.stringify(id), isCall);
  if (line === null) return undefined;
  // back over the turn's items to its start: a tool output or a message not the assistant's
  let first = id;
  let end = line.start - 1;
  for (;;) {
    // the rollout's first line reached: the turn began there; the tail's first line (cut): its start is unknown
    if (end <= 0) {
      if (part.from > 0) return undefined;
      break;
    }
    const prev = lineAt(part, end - 1);
    if (prev === null) return undefined;
    end = prev.start - 1;
    const it = codexItem(prev.value);
    if (it === undefined) continue; // event_msg, turn_context, a blank line: passed over, as the reader does
    if (CODEX_OUTPUTS.has(it.type as string) || (it.type === 'message' && it.role !== 'assistant')) break;
    const callId = callIdOf(it);
    if (CODEX_CALLS.has(it.type as string) && typeof callId === 'string') first = callId;
  }
  return turnNumber(`codex:${first}`);
}
