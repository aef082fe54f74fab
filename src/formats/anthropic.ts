/**
 * Anthropic Messages conversations: assistant `tool_use` blocks (`{id, name, input}`; server and MCP tool
 * uses too) answered by `tool_result` blocks (`{tool_use_id, content, is_error?}`, content a string or text
 * blocks). `is_error: true` makes a known failure (`event.error` is the result text, or `true` when it has
 * none); a result without it is a known success. Calls without a result say nothing (`unknown`). The text
 * blocks of the assistant message are said once: they go into the `text` of its first call, not of each
 * of its parallel calls; `round` is the assistant message's position among them.
 */
import { describe } from '../options/checks.js';
import { nonEmpty, openConversation, partIssue } from './conversation-record.js';
import type { FormatReader } from './format-reader.js';
import { contentText, isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { SessionCalls } from './session-calls.js';
import type { TraceItem } from './trace-record.js';
import { UnknownKinds } from './unknown-kinds.js';

/** Message roles the reader knows (`system` where a log keeps the system prompt among the messages); another is said once per input. */
const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system']);

const CALL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** Whether a block answers a tool use: `tool_result`, or a server tool's `*_tool_result`. */
const isResultBlock = (type: string): boolean => type === 'tool_result' || type.endsWith('_tool_result');

/** The joined text blocks of assistant content. */
function assistantText(content: readonly unknown[]): string | undefined {
  const texts: string[] = [];
  for (const b of content) if (isRecord(b) && b.type === 'text' && typeof b.text === 'string' && b.text !== '') texts.push(b.text);
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** The items of one Anthropic conversation; `unknown` says a role the reader does not know once per input. */
export function* readAnthropic(unit: RecordUnit, unknown = new UnknownKinds('Anthropic message role')): Generator<TraceItem> {
  const c = openConversation(unit, ['messages'], 'messages');
  if ('kind' in c) return yield c;
  const calls = new SessionCalls(c.session, unit.file, unit.line);
  let round = 0;
  for (let i = 0; i < c.parts.length; i++) {
    const m = c.parts[i];
    if (!isRecord(m)) {
      yield partIssue(unit, 'message', i, `expected an object, received ${describe(m)}`);
      continue;
    }
    const assistant = m.role === 'assistant';
    const said = typeof m.role === 'string' ? unknown.unless(ROLES, m.role, unit.file, unit.line) : null; // a message without a role is no kind
    if (said !== null) yield said;
    const r = assistant ? round++ : -1;
    if (!Array.isArray(m.content)) continue;
    let text = assistant ? assistantText(m.content) : undefined; // said once: the message's first call carries it
    for (let j = 0; j < m.content.length; j++) {
      const b: unknown = m.content[j];
      if (!isRecord(b) || typeof b.type !== 'string') continue;
      if (assistant && CALL_BLOCKS.has(b.type)) {
        const name = nonEmpty(b.name);
        if (name === undefined) yield partIssue(unit, 'message', i, `block ${j} (${b.type}) has no name (received ${describe(b.name)})`);
        else {
          calls.call(typeof b.id === 'string' ? b.id : undefined, { tool: name, args: b.input, text, round: r });
          text = undefined;
        }
      } else if (isResultBlock(b.type)) {
        if (typeof b.tool_use_id !== 'string') {
          yield partIssue(unit, 'message', i, `block ${j} (${b.type}) has no string "tool_use_id" (received ${describe(b.tool_use_id)})`);
          continue;
        }
        const result = contentText(b.content);
        const failed = b.is_error === true;
        const error = failed ? (typeof result === 'string' && result !== '' ? result : true) : undefined;
        const known = failed || b.type === 'tool_result' || b.is_error === false;
        const bad = calls.result(b.tool_use_id, result, known ? (failed ? 'known' : 'absent') : 'unknown', error);
        if (bad !== null) yield bad;
      }
    }
  }
  yield* calls.items();
}

/** A reader of Anthropic conversations (one per record; only the roles already said are kept between records). */
export function createAnthropicReader(): FormatReader {
  const unknown = new UnknownKinds('Anthropic message role');
  return { record: (unit) => readAnthropic(unit, unknown), finish: () => [] };
}
