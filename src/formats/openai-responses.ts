/**
 * OpenAI Responses API items: `function_call` (`{call_id, name, arguments}`) and `custom_tool_call`
 * (`{call_id, name, input}`) answered by `*_output` items of the same `call_id`; assistant `message` items'
 * `output_text` is the turn's text. A turn is the run of assistant items (messages, reasoning, calls)
 * between tool outputs or user messages: its calls share its `round` (0-based), and its text, said once, is
 * the text of its first call. Reasoning items are otherwise ignored, as are built-in tool items (web
 * search, file search, ...). The items are a record's `items`, else its `messages` (mini-swe-agent 2.x with a
 * Responses model saves each response whole, `{object: 'response', output: [items]}`, among its other
 * messages: read as its output items), else its `input` then `output`.
 * The format never says whether a call failed (`errorInfo` is `unknown`), but mini-swe-agent's
 * `function_call_output` items carry their command's exit status in `extra.returncode` (mini-swe-outcome.ts): read,
 * and a turn it refused for its format is a failed call (mini-swe-toolcall-errors.ts).
 */
import { describe } from '../options/checks.js';
import { nonEmpty, openConversation, partIssue } from './conversation-record.js';
import type { FormatReader } from './format-reader.js';
import { contentText, isRecord, parseArguments } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { returnCodeOutcome } from './mini-swe-outcome.js';
import { miniSweSession } from './mini-swe-session.js';
import { isMiniSweTrajectory } from './mini-swe-text.js';
import { ToolCallReplies, isToolCallFormatError } from './mini-swe-toolcall-errors.js';
import { SessionCalls } from './session-calls.js';
import type { TraceItem } from './trace-record.js';

const CALLS = new Set(['function_call', 'custom_tool_call']);
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** Where a record keeps its items (see the header). */
function itemKeys(v: unknown): readonly string[] {
  if (isRecord(v) && Array.isArray(v.items)) return ['items'];
  return isRecord(v) && Array.isArray(v.messages) ? ['messages'] : ['input', 'output'];
}

/** The items of `parts`, a saved response (`object: 'response'` with an `output` array) standing for its output items. */
function flatItems(parts: readonly unknown[]): readonly unknown[] {
  if (!parts.some(isSavedResponse)) return parts;
  const items: unknown[] = [];
  for (const p of parts) {
    if (isSavedResponse(p)) for (const it of p.output) items.push(it);
    else items.push(p);
  }
  return items;
}

/** Whether `p` is a whole Responses API response, as mini-swe-agent saves one. */
function isSavedResponse(p: unknown): p is { output: unknown[] } {
  return isRecord(p) && p.object === 'response' && Array.isArray(p.output);
}

/** The items of one Responses session. */
export function* readOpenAiResponses(unit: RecordUnit): Generator<TraceItem> {
  const opened = openConversation(unit, itemKeys(unit.value), 'items');
  if ('kind' in opened) return yield opened;
  const c = { session: miniSweSession(unit.value, opened.session, unit.fallbackSession, unit.file), parts: flatItems(opened.parts) };
  const calls = new SessionCalls(c.session, unit.file, unit.line);
  // a mini-swe-agent 2.x run: a format error answers the turn before it (mini-swe-toolcall-errors.ts)
  const replies = isRecord(unit.value) && isMiniSweTrajectory(unit.value) ? new ToolCallReplies(calls) : null;
  let round = -1;
  let inTurn = false;
  let turnCalls: number[] = [];
  let turnText: string[] = [];
  const closeTurn = (): void => {
    const text = turnText.length === 0 ? undefined : turnText.join('\n');
    if (turnCalls[0] !== undefined) calls.setText(turnCalls[0], text); // said once: the turn's first call carries it
    turnCalls = [];
    turnText = [];
    inTurn = false;
  };
  const openTurn = (): void => {
    if (inTurn) return;
    round++;
    inTurn = true;
  };
  for (let i = 0; i < c.parts.length; i++) {
    const it = c.parts[i];
    if (!isRecord(it)) {
      yield partIssue(unit, 'item', i, `expected an object, received ${describe(it)}`);
      continue;
    }
    const type = it.type;
    if (typeof type === 'string' && CALLS.has(type)) {
      openTurn();
      const name = nonEmpty(it.name);
      if (name === undefined) {
        yield partIssue(unit, 'item', i, `${type} has no name (received ${describe(it.name)})`);
        continue;
      }
      const args = type === 'function_call' ? parseArguments(it.arguments) : it.input;
      turnCalls.push(calls.call(typeof it.call_id === 'string' ? it.call_id : undefined, { tool: name, args, round }));
    } else if (typeof type === 'string' && OUTPUTS.has(type)) {
      closeTurn();
      if (typeof it.call_id !== 'string') {
        yield partIssue(unit, 'item', i, `${type} has no string "call_id" (received ${describe(it.call_id)})`);
        continue;
      }
      const result = contentText(it.output);
      const outcome = returnCodeOutcome(it.extra, result);
      const bad = calls.result(it.call_id, result, outcome.errorInfo, outcome.error);
      if (bad !== null) yield bad;
    } else if (type === 'reasoning') {
      openTurn();
    } else if (type === 'message' || type === undefined) {
      if (it.role !== 'assistant') {
        const said = replies !== null && inTurn && it.role === 'user' ? contentText(it.content) : undefined;
        if (typeof said === 'string' && replies !== null && isToolCallFormatError(it, said)) {
          replies.reply(turnCalls, turnText.length === 0 ? undefined : turnText.join('\n'), round);
          closeTurn();
          replies.formatError(said);
          continue;
        }
        closeTurn();
        continue;
      }
      openTurn();
      const t = nonEmpty(contentText(it.content));
      if (t !== undefined) turnText.push(t);
    }
  }
  closeTurn();
  yield* calls.items();
}

/** A reader of Responses sessions (one per record; nothing kept between records). */
export function createOpenAiResponsesReader(): FormatReader {
  return { record: readOpenAiResponses, finish: () => [] };
}
