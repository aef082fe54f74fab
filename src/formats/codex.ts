/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
 * `session_meta` names the session (`payload.id`; the input's name when there is none); `response_item`
 * payloads are Responses items: `function_call {call_id, name, arguments}` (JSON text), `custom_tool_call
 * {call_id, name, input}`, `local_shell_call {call_id, action}` (the tool `local_shell`, the action its
 * args) and `web_search_call {action}` (the tool `web_search`, no output), answered by
 * `function_call_output` / `custom_tool_call_output` of the same `call_id` (see codex-output.ts for what an
 * output says about failure). `event_msg`, `turn_context` and `compacted` lines repeat what the items say
 * or hold no tool traffic, and are passed over. Rollouts of 2025 without the envelope (a first line
 * `{id, timestamp, instructions}`, then bare items and `{record_type: "state"}` lines) read the same.
 *
 * A turn is the run of assistant items (messages, reasoning, calls) between tool outputs or user messages:
 * its calls share its `round` (0-based), and the text of its assistant messages, said once, is the text of
 * its first call. One session per input, named by the first `session_meta`: a resumed or forked session's
 * rollout carries the parent's `session_meta` and calls again, with their `call_id`s, and a call id is read
 * once (call-ids.ts), its replayed call and output passed over. A subagent forked with its parent's context
 * (0.107+) opens with the parent's history copied: passed over up to the fork's own output (codex-fork.ts),
 * held at most MAX_FORK_COPY_BYTES: past it, read as the child's own, with a note.
 * An MCP call is named and judged as the Codex hook does: `<namespace>__<name>`, its outcome read from its
 * `McpToolCall` `item_completed` event, or an older Codex's `mcp_tool_call_end` (codex-mcp.ts).
 * The first call after a person's prompt (an `event_msg` of type `user_message`, after any copied history) is
 * `prompted`: where Codex's UserPromptSubmit hook gives the session a fresh start; not after a prompt that only
 * answers the agent's own question ("2", "yes": src/text/prompt-origin.ts).
 */
import { describe } from '../options/checks.js';
import { CallIds } from './call-ids.js';
import { ForkCopy, MAX_FORK_COPY_BYTES, isForked } from './codex-fork.js';
import { MAX_MCP_RESULTS, codexToolName, mcpCompletion, mcpOutcome } from './codex-mcp.js';
import { codexOutcome, toolSearchOutcome } from './codex-output.js';
import { CappedMap } from './capped-map.js';
import type { FormatReader, InputName } from './format-reader.js';
import { HeldCalls, type HeldCall, type Outcome } from './held-calls.js';
import { contentText, isRecord, parseArguments } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { type TraceItem, issue } from './trace-record.js';
import { startsAfresh } from '../text/prompt-origin.js';

const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);
/** Item types that are calls, and the tool name of those that carry none. */
const CALLS = new Map<unknown, string | null>([['function_call', null], ['custom_tool_call', null], ['local_shell_call', 'local_shell'], ['web_search_call', 'web_search'], ['tool_search_call', 'tool_search']]);
/** Line types that hold no tool call or result of their own. */
const PASSED_OVER = new Set(['event_msg', 'turn_context', 'compacted']);

/** A reader of Codex rollouts for `input`. */
export function createCodexReader(input: InputName): FormatReader {
  let metaId: string | undefined;
  let calls: HeldCalls | null = null;
  let round = -1;
  let turnCalls: HeldCall[] | null = null;
  let turnText: string[] = [];
  const ids = new CallIds<true>();
  /** MCP calls' results from their `item_completed` events, for their outputs to come (codex-mcp.ts). */
  const mcpResults = new CappedMap<string, Outcome>(MAX_MCP_RESULTS);
  /** A forked child's copy of its parent's history, while it is read (codex-fork.ts). */
  let fork: ForkCopy | null = null;
  const held = (): HeldCalls => (calls ??= new HeldCalls(metaId ?? input.name));
  const bad = (unit: RecordUnit, message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${message}; skipped`);
  const openTurn = (): HeldCall[] => {
    if (turnCalls === null) {
      round++;
      turnCalls = [];
      turnText = [];
    }
    return turnCalls;
  };

  /** A line that is not a `session_meta`: its call or output, then the calls now complete. */
  function* line(unit: RecordUnit): Generator<TraceItem> {
    const v = unit.value as Record<string, unknown>;
    // a person's prompt (the event Codex writes for it; its response_item message repeats it): the next call comes after it
    // (one that only answers the agent's question, "2", "yes", gives no fresh start: src/text/prompt-origin.ts)
    if (v.type === 'event_msg' && isRecord(v.payload) && v.payload.type === 'user_message') return startsAfresh(v.payload.message) ? calls?.prompt() : undefined;
    // an MCP call's end: its outcome as the hook reads it, which its output line does not say (codex-mcp.ts)
    const mcp = v.type === 'event_msg' ? mcpCompletion(v.payload) : undefined;
    if (mcp !== undefined) return mcpResults.set(mcp.id, mcpOutcome(mcp.result));
    if (typeof v.type === 'string' && PASSED_OVER.has(v.type)) return;
    const it = v.type === 'response_item' ? v.payload : v; // 2025 rollouts: bare items
    if (!isRecord(it)) return yield bad(unit, `a response_item line needs a "payload" object, received ${describe(it)}`);
    yield* item(it, unit);
    yield* held().release();
  }

  function* item(it: Record<string, unknown>, unit: RecordUnit): Generator<TraceItem> {
    const type = it.type;
    const at = { file: unit.file, line: unit.line };
    if (CALLS.has(type)) {
      const turn = openTurn();
      const tool = CALLS.get(type) ?? codexToolName(it, it.name);
      if (typeof tool !== 'string' || tool === '') return yield bad(unit, `${String(type)} has no name (received ${describe(tool)})`);
      const args = type === 'function_call' || type === 'tool_search_call' ? parseArguments(it.arguments) : type === 'custom_tool_call' ? it.input : it.action;
      const id = typeof it.call_id === 'string' ? it.call_id : typeof it.id === 'string' ? it.id : undefined;
      const text = turnText.length === 0 || turn.length > 0 ? undefined : turnText.join('\n'); // said once: the turn's first call
      const noOutput = type === 'web_search_call' ? { result: undefined, errorInfo: 'unknown' as const } : null;
      if (noOutput === null && id !== undefined && !ids.call(id, true)) return; // the parent's call, replayed
      turn.push(held().hold(noOutput === null ? id : undefined, { tool, args, text, round, ...at }, noOutput));
    } else if (typeof type === 'string' && OUTPUTS.has(type)) {
      turnCalls = null;
      if (typeof it.call_id !== 'string') return yield bad(unit, `${type} has no string "call_id" (received ${describe(it.call_id)})`);
      const met = ids.result(it.call_id);
      if (met.kind === 'replay') return; // the parent's output, replayed
      const outcome = type === 'tool_search_output' ? toolSearchOutcome(it) : (mcpResults.get(it.call_id) ?? codexOutcome(it.output));
      if (met.kind === 'unknown' || !held().settle(it.call_id, outcome)) {
        yield issue('unpaired-result', unit.file, unit.line, `result for call id ${JSON.stringify(it.call_id)} has no call waiting in session ${JSON.stringify(held().session)}; skipped`);
      }
    } else if (type === 'reasoning') {
      openTurn();
    } else if (type === 'message') {
      if (it.role !== 'assistant') {
        turnCalls = null;
        return;
      }
      const turn = openTurn();
      const t = contentText(it.content);
      if (typeof t !== 'string' || t === '') return;
      turnText.push(t);
      if (turn[0] !== undefined) turn[0].text = turnText.join('\n');
    }
  }

  /** The fork's copy given up (it never ended, or it passed the cap): its lines read as they are. */
  function* giveUp(): Generator<TraceItem> {
    const lines = (fork?.held ?? []) as RecordUnit[];
    fork = null;
    for (const unit of lines) if ((unit.value as Record<string, unknown>).type !== 'session_meta') yield* line(unit);
  }

  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const v = unit.value;
      if (!isRecord(v)) return yield bad(unit, `expected a rollout line (an object with a "type" and a "payload"), received ${describe(v)}`);
      if (v.type === undefined) {
        // 2025 rollouts: a first line {id, timestamp, instructions} and {record_type: "state"} markers
        if (metaId === undefined && typeof v.id === 'string' && v.id !== '' && v.record_type === undefined) metaId = v.id;
        return;
      }
      if (fork?.copying === true) {
        fork.take(unit, v, v.type === 'session_meta' ? v.payload : undefined, v.type === 'response_item' && isRecord(v.payload) ? v.payload : undefined);
        if (!fork.copying) fork = null; // the copy ended: its lines passed over, no longer held
        if (fork === null || !fork.full) return;
        const first = (fork.held[0] as RecordUnit).line;
        yield { kind: 'note', file: unit.file, line: first, message: `the copy of its parent's history at the head of this forked rollout passed ${MAX_FORK_COPY_BYTES >> 20} MiB without the fork's own output: read as the session's own calls` };
        return yield* giveUp();
      }
      if (v.type === 'session_meta') {
        if (!isRecord(v.payload)) return yield bad(unit, `a session_meta line needs a "payload" object, received ${describe(v.payload)}`);
        if (metaId === undefined && typeof v.payload.id === 'string' && v.payload.id !== '') {
          metaId = v.payload.id;
          if (isForked(v.payload)) fork = new ForkCopy(); // a forked child: the parent's history comes first
        }
        return;
      }
      yield* line(unit);
    },
    *finish(): Generator<TraceItem> {
      // no fork output came: the lines were not a copy after all
      if (fork?.copying === true) yield* giveUp();
      if (calls === null) return;
      yield* calls.releaseAll();
      yield { kind: 'end', session: calls.session, file: input.file };
    },
  };
}
