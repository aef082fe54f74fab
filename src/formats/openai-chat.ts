/**
 * OpenAI Chat Completions conversations: assistant messages with `tool_calls`
 * (`{id, type: 'function', function: {name, arguments}}`, or `custom: {name, input}`), `tool` messages
 * answering them by `tool_call_id`, and the legacy `function_call` / `function` messages (paired by name).
 * `arguments` are parsed when they are JSON and kept as text otherwise; the assistant message's text is
 * said once: it goes into the `text` of its first call, not of each of its parallel calls; `round` is the
 * assistant message's position among them.
 * The format never says whether a call failed (`errorInfo` is `unknown`), but mini-swe-agent 2.x tool
 * messages carry their command's exit status in `extra.returncode` (mini-swe-outcome.ts): read. A
 * mini-swe-agent trajectory of a text-based model (1.x, and 2.x's text-based models) has no tool calls: its
 * replies' fenced commands and the `user` messages answering them are its calls (mini-swe-text.ts); one of
 * a tool-calling model's, a reply the harness refused for its format is a failed call (mini-swe-toolcall-errors.ts).
 */
import { describe } from '../options/checks.js';
import { nonEmpty, openConversation, partIssue } from './conversation-record.js';
import type { FormatReader } from './format-reader.js';
import { contentText, isRecord, parseArguments } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { returnCodeOutcome } from './mini-swe-outcome.js';
import { miniSweSession } from './mini-swe-session.js';
import { TextTurns, isMiniSweTrajectory, isTextFormatError } from './mini-swe-text.js';
import { ToolCallReplies, isToolCallFormatError } from './mini-swe-toolcall-errors.js';
import { SessionCalls } from './session-calls.js';
import type { TraceItem } from './trace-record.js';
import { UnknownKinds } from './unknown-kinds.js';

/**
 * Message roles the reader knows (mini-swe-agent 2.x ends a run with an `exit` message); another role is said
 * once per input, and so is an item without a role whose `type` names a call (`function_call`,
 * `custom_tool_call`: the Responses API's items, which this reader does not read).
 */
export const CHAT_ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function', 'exit']);

/** Pairing key of a legacy `function_call` (no id): its name, in a namespace real ids cannot reach. */
const legacyId = (name: string): string => `\u0000function:${name}`;

/** The items of one OpenAI chat conversation; `unknown` says a role the reader does not know once per input. */
export function* readOpenAiChat(unit: RecordUnit, unknown = new UnknownKinds('OpenAI chat message role or item type')): Generator<TraceItem> {
  const c = openConversation(unit, ['messages'], 'messages');
  if ('kind' in c) return yield c;
  const calls = new SessionCalls(miniSweSession(unit.value, c.session, unit.fallbackSession, unit.file), unit.file, unit.line);
  const turns = isRecord(unit.value) && isMiniSweTrajectory(unit.value) ? new TextTurns(calls) : null;
  const replies = turns === null ? null : new ToolCallReplies(calls);
  let round = 0;
  for (let i = 0; i < c.parts.length; i++) {
    const m = c.parts[i];
    if (!isRecord(m)) {
      yield partIssue(unit, 'message', i, `expected an object, received ${describe(m)}`);
      continue;
    }
    if (m.role === 'assistant') {
      const r = round++;
      const t = contentText(m.content);
      const said = nonEmpty(t);
      let text = said; // said once: the message's first call carries it
      const positions: number[] = [];
      if (Array.isArray(m.tool_calls)) {
        for (let j = 0; j < m.tool_calls.length; j++) {
          const tc: unknown = m.tool_calls[j];
          const fn = isRecord(tc) ? (isRecord(tc.function) ? tc.function : isRecord(tc.custom) ? tc.custom : null) : null;
          const name = nonEmpty(fn?.name);
          if (!isRecord(tc) || fn === null || name === undefined) {
            yield partIssue(unit, 'message', i, `tool call ${j} has no function name (received ${describe(tc)})`);
            continue;
          }
          const args = fn === tc.function ? parseArguments(fn.arguments) : fn.input;
          positions.push(calls.call(typeof tc.id === 'string' ? tc.id : undefined, { tool: name, args, text, round: r }));
          text = undefined;
        }
      } else if (m.tool_calls !== undefined && m.tool_calls !== null) {
        yield partIssue(unit, 'message', i, `"tool_calls" must be an array, received ${describe(m.tool_calls)}`);
      }
      if (isRecord(m.function_call)) {
        const name = nonEmpty(m.function_call.name);
        if (name === undefined) yield partIssue(unit, 'message', i, `"function_call" has no name`);
        else calls.call(legacyId(name), { tool: name, args: parseArguments(m.function_call.arguments), text, round: r });
      }
      if (turns !== null && m.tool_calls === undefined && m.function_call === undefined) turns.reply(m, typeof t === 'string' ? t : undefined, r);
      replies?.reply(positions, said, r); // a 2.x format error may answer it
    } else if (m.role === 'user' && turns !== null) {
      const o = contentText(m.content);
      const text = typeof o === 'string' ? o : '';
      // a text-based model's format error is the text turns' own; a tool-calling model's, the replies'
      if (!isTextFormatError(text) && isToolCallFormatError(m, text) && replies?.formatError(text) === true) continue;
      replies?.settle();
      turns.observation(m, text);
    } else if (m.role === 'tool') {
      replies?.settle();
      if (typeof m.tool_call_id !== 'string') {
        yield partIssue(unit, 'message', i, `tool message without a string "tool_call_id" (received ${describe(m.tool_call_id)})`);
        continue;
      }
      const result = contentText(m.content);
      const outcome = returnCodeOutcome(m.extra, result);
      const bad = calls.result(m.tool_call_id, result, outcome.errorInfo, outcome.error);
      if (bad !== null) yield bad;
    } else if (m.role === 'function') {
      if (typeof m.name !== 'string') {
        yield partIssue(unit, 'message', i, `function message without a string "name" (received ${describe(m.name)})`);
        continue;
      }
      const bad = calls.result(legacyId(m.name), contentText(m.content), 'unknown');
      if (bad !== null) yield bad;
    } else {
      const kind = typeof m.role === 'string' ? m.role : typeof m.type === 'string' && m.type.endsWith('_call') ? m.type : undefined;
      const said = kind === undefined ? null : unknown.unless(CHAT_ROLES, kind, unit.file, unit.line);
      if (said !== null) yield said;
    }
  }
  turns?.flush();
  yield* calls.items();
}

/** A reader of OpenAI chat conversations (one per record; only the roles already said are kept between records). */
export function createOpenAiChatReader(): FormatReader {
  const unknown = new UnknownKinds('OpenAI chat message role or item type');
  return { record: (unit) => readOpenAiChat(unit, unknown), finish: () => [] };
}
