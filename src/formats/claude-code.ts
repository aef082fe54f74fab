/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one JSON object per line,
 * `{type, sessionId, uuid, parentUuid, isSidechain, timestamp, message, ...}`. Assistant lines carry
 * `message.content[]` blocks, `tool_use {id, name, input}` among them (one API message may be spread over
 * several lines sharing `message.id`); user lines answer with `tool_result {tool_use_id, content, is_error}`
 * (text parts joined, images as short placeholders: image-part.ts). Other lines (summary, system,
 * file-history-snapshot, ...) hold no tool traffic and are passed over. A call's input is taken as Claude
 * Code's hook compares it: Bash's free-text `description` left out (volatile-input.ts); a result too, the
 * file path of a `<persisted-output>` block (a large output saved under a new name per run) masked
 * (volatile-output.ts).
 *
 * The session is `sessionId` (the input's name when a line has none); sidechain lines (a subagent's work)
 * are sessions of their own, by `agentId` or, in older transcripts, by the root of their chain
 * (claude-code-sessions.ts), so a subagent's calls never interleave with its parent's or another
 * subagent's. A tool_use id is read once per transcript (call-ids.ts): the history of a resumed session
 * written again (new uuids, the same ids) is passed over, its results too, and a result is paired with its
 * call by id whichever chain its line is on. A compaction or side-question agent (a copy of its parent's
 * conversation, its calls again) is passed over with one note (claude-code-sessions.ts `parentCopy`), and so
 * is a warmup agent (the prompt "Warmup": calls that never run, answered "Warmup"; `opensWarmup`), and
 * a workflow journal (2.1.16x `subagents/workflows/wf_<id>/journal.jsonl`, `isWorkflowJournalLine`).
 * `is_error: true` makes a known failure, a result without it a known success (but Zed's ACP adapter's shell
 * tools, whose exit code is in their text: acp-shell-result.ts); a call without result says nothing (`unknown`). The text blocks of an assistant message
 * are said once, so they go into the `text` of its first call (with text blocks written after that call;
 * not the `(no content)` placeholder some versions write for an empty block), never into each of its
 * parallel calls; `round` is the message's position among the session's assistant messages. The first call
 * after a person's typed prompt (claude-code-prompt.ts) is `prompted`: where the hook gives a fresh start.
 */
import { describe } from '../options/checks.js';
import { acpShellOutcome } from './acp-shell-result.js';
import { CallIds } from './call-ids.js';
import { isTypedPrompt } from './claude-code-prompt.js';
import { startsAfresh } from '../text/prompt-origin.js';
import { ClaudeCodeSessions, WARMUP_PROMPT, isWorkflowJournalLine, opensWarmup, parentCopy } from './claude-code-sessions.js';
import { EARLY_RESULT_LINES, EarlyResults } from './early-results.js';
import type { FormatReader, InputName } from './format-reader.js';
import { HeldCalls, type HeldCall, failure } from './held-calls.js';
import { contentText, isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { type TraceItem, issue } from './trace-record.js';
import { stableInput } from './volatile-input.js';
import { stableResult } from './volatile-output.js';

const CALL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Agents passed over (copies of their parent, warmups) an input remembers at most; past that, each further
 * line of a copy says so again and a warmup's further lines are read.
 */
const MAX_COPIES_NAMED = 1024;

/**
 * The text Claude Code writes in place of an empty text block (1.0.31, 2.0.29 to 2.0.31): no narration, so
 * not a call's text (read as text, a session's 12 empty turns were "(no content)" said 12 times).
 */
export const NO_CONTENT = '(no content)';

/** A session's calls and the assistant message being read. */
interface Transcript {
  readonly calls: HeldCalls;
  round: number;
  messageId: unknown;
  /** The message's first call: its text is said once, by this call. */
  messageFirst: HeldCall | null;
  messageText: string[];
}

/** A reader of Claude Code transcripts for `input`. */
export function createClaudeCodeReader(input: InputName): FormatReader {
  const sessions = new Map<string, Transcript>();
  const lines = new ClaudeCodeSessions(input.name);
  const ids = new CallIds<HeldCalls>();
  const early = new EarlyResults();
  let callsRead = 0;
  /** Agents passed over as copies of their parent (said once each), at most MAX_COPIES_NAMED remembered. */
  const copies = new Set<string>();
  /** Warmup agents' sessions, whose lines are passed over (at most MAX_COPIES_NAMED remembered). */
  const warmups = new Set<string>();
  /**
   * Their agent ids too: Claude Code 2.0.77 can go on writing a warmup agent's file under another session id
   * after its prompt (the session resumed), so the later lines name a session no warmup opened.
   */
  const warmupAgents = new Set<string>();
  let journal = false;
  const bad = (unit: RecordUnit, message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${message}; skipped`);

  function* assistant(t: Transcript, unit: RecordUnit, message: Record<string, unknown>, content: readonly unknown[]): Generator<TraceItem> {
    if (message.id === undefined || message.id !== t.messageId) {
      t.round++;
      t.messageId = message.id;
      t.messageFirst = null;
      t.messageText = [];
    }
    for (let j = 0; j < content.length; j++) {
      const b: unknown = content[j];
      if (!isRecord(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string' && b.text !== '' && b.text !== NO_CONTENT) {
        t.messageText.push(b.text);
        if (t.messageFirst !== null) t.messageFirst.text = t.messageText.join('\n'); // said after its first call: still the message's
      } else if (typeof b.type === 'string' && CALL_BLOCKS.has(b.type)) {
        if (typeof b.name !== 'string' || b.name === '') {
          yield bad(unit, `block ${j} (${b.type}) has no name (received ${describe(b.name)})`);
          continue;
        }
        const text = t.messageText.length === 0 || t.messageFirst !== null ? undefined : t.messageText.join('\n');
        const id = typeof b.id === 'string' ? b.id : undefined;
        if (id !== undefined && !ids.call(id, t.calls)) continue; // a replayed history's call, read before
        const written = id === undefined ? undefined : early.take(id); // its result was written first
        const outcome = written === undefined ? undefined : acpShellOutcome(b.name, written);
        if (outcome !== undefined) ids.result(id!);
        callsRead++;
        const held = t.calls.hold(id, { tool: b.name, args: stableInput('claude-code', b.name, b.input), text, round: t.round, file: unit.file, line: unit.line }, outcome ?? null);
        t.messageFirst ??= held;
      }
    }
  }

  function* user(t: Transcript, unit: RecordUnit, content: readonly unknown[]): Generator<TraceItem> {
    for (let j = 0; j < content.length; j++) {
      const b: unknown = content[j];
      if (!isRecord(b) || typeof b.type !== 'string' || (b.type !== 'tool_result' && !b.type.endsWith('_tool_result'))) continue;
      if (typeof b.tool_use_id !== 'string') {
        yield bad(unit, `block ${j} (${b.type}) has no string "tool_use_id" (received ${describe(b.tool_use_id)})`);
        continue;
      }
      const met = ids.result(b.tool_use_id);
      if (met.kind === 'replay') continue; // a replayed history's result: its call has its first one
      const result = stableResult('', contentText(b.content)); // a persisted output's path masked, as the hook masks it
      const outcome = b.is_error === true ? failure(result) : { result, errorInfo: b.type === 'tool_result' || b.is_error === false ? ('absent' as const) : ('unknown' as const) };
      const id = JSON.stringify(b.tool_use_id);
      if (met.kind === 'unknown') {
        // its call may be on the next lines (Claude Code 2.1.88+ writes some results first)
        const where = callsRead === 0 ? `: the input begins after its call (a session continued from an earlier file)` : ` within ${EARLY_RESULT_LINES} lines after it`;
        yield* early.hold(b.tool_use_id, outcome, unit.file, unit.line, `result for call id ${id} has no call in session ${JSON.stringify(t.calls.session)}${where}; skipped`);
        continue;
      }
      const holder = met.holder;
      const tool = holder.waitingTool(b.tool_use_id);
      if (!holder.settle(b.tool_use_id, tool === undefined ? outcome : acpShellOutcome(tool, outcome))) {
        yield issue('unpaired-result', unit.file, unit.line, `result for call id ${id} has no call waiting in session ${JSON.stringify(holder.session)}; skipped`);
      } else if (holder !== t.calls) yield* holder.release(); // its call is in another chain's session
    }
  }

  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      if (early.size > 0) yield* early.tick();
      const v = unit.value;
      if (!isRecord(v)) return yield bad(unit, `expected a transcript line (an object with a "type"), received ${describe(v)}`);
      const copy = parentCopy(v);
      if (copy !== null) {
        if (copies.has(copy.agent)) return;
        if (copies.size < MAX_COPIES_NAMED) copies.add(copy.agent);
        const parent = typeof v.sessionId === 'string' ? ` of session ${JSON.stringify(v.sessionId)}` : '';
        return yield { kind: 'note', file: unit.file, line: unit.line, message: `passed over: agent ${JSON.stringify(copy.agent)} is ${copy.what}${parent}, a copy of its conversation that repeats its calls` };
      }
      if (isWorkflowJournalLine(v)) {
        if (journal) return;
        journal = true;
        return yield { kind: 'note', file: unit.file, line: unit.line, message: 'passed over: a workflow journal (which agents of the workflow started, what each answered); their calls are in their own agent-*.jsonl' };
      }
      const isCall = v.type === 'assistant' || v.type === 'user';
      if (!isCall && v.isSidechain !== true) return;
      const session = lines.of(v); // every sidechain line: its chain leads to its root
      if (!isCall) return;
      if (typeof session !== 'string') return yield bad(unit, session.bad);
      const agentId = v.isSidechain === true && typeof v.agentId === 'string' ? v.agentId : undefined;
      if (warmups.has(session) || (agentId !== undefined && warmupAgents.has(agentId))) return;
      if (opensWarmup(v)) {
        if (warmups.size < MAX_COPIES_NAMED) warmups.add(session);
        if (agentId !== undefined && warmupAgents.size < MAX_COPIES_NAMED) warmupAgents.add(agentId);
        return yield { kind: 'note', file: unit.file, line: unit.line, message: `passed over: ${JSON.stringify(session)} is a warmup agent (the prompt ${JSON.stringify(WARMUP_PROMPT)}: its calls never run)` };
      }
      const message = v.message;
      if (!isRecord(message)) return yield bad(unit, `${v.type === 'user' ? 'a user' : 'an assistant'} line needs a "message" object, received ${describe(message)}`);
      let t = sessions.get(session);
      // a person's prompt: the next call comes after it (a prompt before the session's first call changes
      // nothing; one that only answers the agent's question, "2", "yes", neither, nor a background task's
      // notification, origin.kind "task-notification": src/text/prompt-origin.ts)
      if (t !== undefined && isTypedPrompt(v, message.content) && startsAfresh(message.content, v.origin)) t.calls.prompt();
      if (!Array.isArray(message.content)) return; // a prompt typed as plain text
      if (t === undefined) {
        t = { calls: new HeldCalls(session), round: -1, messageId: undefined, messageFirst: null, messageText: [] };
        sessions.set(session, t);
      }
      yield* v.type === 'assistant' ? assistant(t, unit, message, message.content) : user(t, unit, message.content);
      yield* t.calls.release();
    },
    *finish(): Generator<TraceItem> {
      yield* early.flush();
      for (const t of sessions.values()) {
        yield* t.calls.releaseAll();
        yield { kind: 'end', session: t.calls.session, file: input.file };
      }
    },
  };
}
