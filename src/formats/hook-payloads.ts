/**
 * Hook payload logs: the JSON objects a tool hook receives on stdin, one per line, as a logging hook
 * appends them (Claude Code and Codex `PreToolUse` / `PostToolUse` / `PostToolUseFailure`, Gemini CLI
 * `BeforeTool` / `AfterTool`): `{session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input,
 * tool_use_id?}`, the after-event adding `tool_response` or `error`. Sessions may interleave.
 *
 * A before-event is a call (`tool_input` its args, without the free text the agent's hook leaves out:
 * volatile-input.ts), paired with its after-event by `tool_use_id`, or, when
 * the payloads carry none (Gemini), with the session's oldest unanswered call of the same tool. An
 * after-event without its before-event (a log of after-events only) is a call of its own. The after-event
 * decides the failure: `PostToolUseFailure`, an `error`, or a `tool_response` with an `error` (Gemini) is a
 * known failure, any other a known success; a call whose after-event never comes says nothing (`unknown`).
 * The result is the response's `llmContent` when it has one (what the model saw), else the response; a
 * Claude Code or Codex result as the Claude Code hook compares it (claude-code-result.ts: Bash's as the
 * text of its stdout and stderr, others without what differs between identical runs). A Codex payload (it
 * carries `turn_id` or `model`, as the hook tells agents apart; a decision log line says `"agent": "codex"`)
 * has its result read as the Codex hook reads it (codex-hook-result.ts: Bash's exit code from the output's
 * header, the `Command:` echo and `Wall time:` left out; an MCP response's `isError`), a Gemini CLI
 * payload's as the Gemini hook reads it (gemini-hook-result.ts: run_shell_command's `Exit Code:` footer).
 * A call that did not run is forgotten, as the Claude Code hook takes it as not run (LoopDetector.didNotRun):
 * one that `PermissionDenied` names (auto mode's classifier denied it), and one a `PostToolBatch` names
 * (post-tool-batch.ts: after a turn's calls resolved, one still waiting for its after-event did not run,
 * whatever its text); only a call still waiting for its after-event is (one that has its outcome ran). A
 * prompt (`UserPromptSubmit`, `BeforeAgent`) makes the session's next call `prompted` (the hooks give a fresh
 * start there), unless its `prompt` only answers the agent's own question ("2", "yes") or is a background task's notification
 * (`<task-notification>…`, Claude Code): src/text/prompt-origin.ts.
 * A subagent's payloads (Claude Code's `agent_id`) are a session of their own,
 * `<session_id>#<agent_id>`, as the hook checks them (subagent-session.ts); its calls still waiting at its
 * SubagentStop, or at its parent's Interrupt or SessionEnd, are forgotten, as the hook ends the subagent's
 * state there (an interrupt killed them: src/hooks/subagent-states.ts). Other hook events (stops, session
 * starts) are passed over. Sessions end with the input; only
 * sessions with a call waiting are kept, at most {@link MAX_OPEN_SESSIONS} (the least recently used first
 * gives its calls up without outcome).
 */
import { describe } from '../options/checks.js';
import type { FormatReader, InputName } from './format-reader.js';
import { HeldCalls, type Outcome, failure } from './held-calls.js';
import { isRecord } from './json-value.js';
import type { RecordUnit } from './read-records.js';
import { isSubagentOf, loopSession } from './subagent-session.js';
import { type TraceItem, issue } from './trace-record.js';
import { stableInput } from './volatile-input.js';
import { stableResult } from './volatile-output.js';
import { acpShellOutcome } from './acp-shell-result.js';
import { batchEntries } from './post-tool-batch.js';
import { claudeCodeResult } from './claude-code-result.js';
import { codexHookOutcome, hasCodexMarks } from './codex-hook-result.js';
import { geminiHookOutcome } from './gemini-hook-result.js';
import { geminiPayloadTool } from './gemini-mcp.js';
import { startsAfresh } from '../text/prompt-origin.js';

const BEFORE = new Set(['PreToolUse', 'BeforeTool']);
const AFTER = new Set(['PostToolUse', 'PostToolUseFailure', 'AfterTool']);
/** Gemini CLI's events: its tools' args are compared as its hook compares them (volatile-input.ts); others as Claude Code's. */
const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool']);

/** The events of a person's prompt (UserPromptSubmit: Claude Code, Codex; BeforeAgent: Gemini CLI), where the hooks give a fresh start. */
const PROMPT = new Set(['UserPromptSubmit', 'BeforeAgent']);

/** Claude Code's events naming calls that did not run (the hook's `decline` phase: src/hooks/claude-code.ts). */
const NOT_RUN = new Set(['PermissionDenied', 'PostToolBatch']);
/** The events that end subagents: a subagent's own SubagentStop, its parent's Interrupt and SessionEnd (Claude Code). */
const SUBAGENTS_END = new Set(['SubagentStop', 'Interrupt', 'SessionEnd']);
/** The ids of the calls a PermissionDenied or PostToolBatch payload says did not run (see the header). */
function notRunIds(v: Readonly<Record<string, unknown>>): string[] {
  const idOf = (c: Readonly<Record<string, unknown>>): string[] => (typeof c.tool_use_id === 'string' && c.tool_use_id !== '' ? [c.tool_use_id] : []);
  if (v.hook_event_name === 'PermissionDenied') return idOf(v);
  return batchEntries(v.tool_calls).flatMap(({ entry }) => idOf(entry));
}

/** Sessions with a call waiting for its after-event, at most. */
export const MAX_OPEN_SESSIONS = 10_000;

/** Pairing key of a payload without `tool_use_id`: its tool, in a namespace real ids cannot reach. */
const byOrder = (tool: string): string => `\u0000tool:${tool}`;
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== '';

/** What an after-event says about its call. */
function afterOutcome(v: Record<string, unknown>): Outcome {
  const response = v.tool_response;
  const result = isRecord(response) && 'llmContent' in response ? response.llmContent : (response ?? v.error);
  if (v.hook_event_name === 'PostToolUseFailure' || present(v.error)) return { result, error: present(v.error) ? v.error : true, errorInfo: 'known' };
  if (isRecord(response) && present(response.error)) {
    const e = response.error;
    return { ...failure(result), error: isRecord(e) && typeof e.message === 'string' ? e.message : e };
  }
  return { result, errorInfo: 'absent' };
}

/**
 * A Claude Code (or Codex) outcome as its hook compares it: the result as the hook reads it
 * (claude-code-result.ts, shared with src/hooks/claude-code.ts: Bash's `{stdout, stderr, ...}` as its
 * text; Zed's ACP shell tools' non-zero exit a failure, acp-shell-result.ts), the error without what differs
 * between identical runs (volatile-output.ts).
 */
function stableOutcome(tool: string, given: Outcome): Outcome {
  const o = acpShellOutcome(tool, given); // Zed's ACP shell tools: a non-zero exit in the text is a failure
  const result = claudeCodeResult(tool, o.result);
  const error = o.error === undefined ? undefined : stableResult(tool, o.error);
  return result === o.result && error === o.error ? o : { ...o, result, ...(error === undefined ? {} : { error }) };
}

/** Whether a payload is Codex CLI's (codex-hook-result.ts's hasCodexMarks, as the hooks tell; a decision log line names its agent). */
function isCodexPayload(v: Readonly<Record<string, unknown>>): boolean {
  return v.agent === undefined ? hasCodexMarks(v) : v.agent === 'codex';
}

/**
 * A Codex after-event's outcome as the Codex hook reads it (codex-hook-result.ts); a decision log's
 * failure line (`PostToolUseFailure`, `error`: what the hook read) as any agent's.
 */
function codexAfterOutcome(v: Record<string, unknown>): Outcome {
  if (v.hook_event_name === 'PostToolUseFailure' || present(v.error)) return afterOutcome(v);
  return codexHookOutcome(v.tool_response);
}

/**
 * A Gemini CLI after-event's outcome as the Gemini hook reads it (gemini-hook-result.ts: run_shell_command's
 * `Exit Code:` footer, an `error`'s message); a decision log's failure line (`error`: what the hook read) as
 * any agent's.
 */
function geminiAfterOutcome(tool: string, v: Record<string, unknown>): Outcome {
  if (present(v.error)) return afterOutcome(v);
  const o = geminiHookOutcome(tool, v.tool_response);
  return 'error' in o ? failure(o.error) : { result: o.result, errorInfo: 'absent' };
}

/** A reader of hook payload logs for `input`. */
export function createHookPayloadsReader(input: InputName): FormatReader {
  const open = new Map<string, HeldCalls>();
  /**
   * Sessions that had calls and have none waiting, and whether a prompt came since their latest call; at
   * most MAX_OPEN_SESSIONS (the least recently idle forgotten: its next prompt is then taken as its first).
   */
  const idle = new Map<string, boolean>();
  /** A prompt: the session's next call comes after it. */
  const prompt = (session: unknown): void => {
    if (typeof session !== 'string') return;
    const held = open.get(session);
    if (held !== undefined) held.prompt();
    else if (idle.has(session)) idle.set(session, true);
  };
  /** The held calls of a session with none waiting, told of a prompt since its latest call. */
  const opened = (session: string): HeldCalls => {
    const calls = new HeldCalls(session);
    if (idle.get(session) === true) calls.prompt(true);
    idle.delete(session);
    return calls;
  };
  /** A session whose calls are all released. */
  const rests = (session: string): void => {
    open.delete(session);
    idle.delete(session);
    idle.set(session, false);
    if (idle.size > MAX_OPEN_SESSIONS) idle.delete(idle.keys().next().value!);
  };
  /** The end of a subagent (`own`: `session` is the subagent's), or of every subagent of `session`: the calls they still wait for are forgotten. */
  function* endSubagents(session: string, own: boolean): Generator<TraceItem> {
    const ended = own ? (open.has(session) ? [session] : []) : [...open.keys()].filter((s) => isSubagentOf(s, session));
    for (const s of ended) {
      const held = open.get(s)!;
      held.forgetWaiting();
      yield* held.releaseAll();
      rests(s);
    }
  }
  const bad = (unit: RecordUnit, message: string): TraceItem => issue('bad-record', unit.file, unit.line, `${message}; skipped`);

  return {
    *record(unit: RecordUnit): Generator<TraceItem> {
      const v = unit.value;
      if (!isRecord(v) || typeof v.hook_event_name !== 'string') return yield bad(unit, `expected a hook payload (an object with a string "hook_event_name"), received ${isRecord(v) ? `an object whose "hook_event_name" is ${describe(v.hook_event_name)}` : describe(v)}`);
      const named = v.session_id ?? input.name;
      const agent = typeof v.agent_id === 'string' && v.agent_id !== '' ? v.agent_id : undefined;
      const session = typeof named === 'string' && named !== '' ? loopSession(named, agent) : named;
      // a prompt that only answers the agent's own question ("2", "yes") gives no fresh start, nor a background
      // task's notification (`<task-notification>…`): src/text/prompt-origin.ts
      if (PROMPT.has(v.hook_event_name)) return startsAfresh(v.prompt) ? prompt(session) : undefined;
      if (SUBAGENTS_END.has(v.hook_event_name)) {
        if (typeof session === 'string') yield* endSubagents(session, agent !== undefined);
        return;
      }
      const before = BEFORE.has(v.hook_event_name);
      const notRun = NOT_RUN.has(v.hook_event_name);
      if (!before && !notRun && !AFTER.has(v.hook_event_name)) return;
      if (typeof session !== 'string' || session === '') return yield bad(unit, `"session_id" must be a non-empty string, received ${describe(session)}`);
      if (notRun) {
        const held = open.get(session);
        if (held === undefined) return;
        for (const id of notRunIds(v)) held.forget(id);
        yield* held.release();
        if (held.size === 0) rests(session);
        return;
      }
      const toolName = v.tool_name;
      if (typeof toolName !== 'string' || toolName === '') return yield bad(unit, `${v.hook_event_name} payload without a "tool_name" (received ${describe(toolName)})`);
      // a Gemini MCP tool named as the Gemini hook names it (gemini-mcp.ts)
      const tool = GEMINI_EVENTS.has(v.hook_event_name) ? geminiPayloadTool(toolName, v.mcp_context) : toolName;
      const id = typeof v.tool_use_id === 'string' && v.tool_use_id !== '' ? v.tool_use_id : byOrder(tool);
      const calls = open.get(session) ?? opened(session);
      open.delete(session);
      open.set(session, calls); // most recently used last
      const start = { tool, args: stableInput(GEMINI_EVENTS.has(v.hook_event_name) ? 'gemini' : 'claude-code', tool, v.tool_input), file: unit.file, line: unit.line };
      if (before) calls.hold(id, start);
      else {
        const outcome = GEMINI_EVENTS.has(v.hook_event_name) ? geminiAfterOutcome(tool, v) : isCodexPayload(v) ? codexAfterOutcome(v) : stableOutcome(tool, afterOutcome(v));
        if (!calls.settle(id, outcome)) calls.hold(undefined, start, outcome);
      }
      yield* calls.release();
      if (calls.size === 0) rests(session);
      if (open.size > MAX_OPEN_SESSIONS) {
        const [oldest, held] = open.entries().next().value!;
        rests(oldest);
        yield* held.releaseAll();
      }
    },
    *finish(): Generator<TraceItem> {
      for (const calls of open.values()) yield* calls.releaseAll();
      open.clear();
      idle.clear();
    },
  };
}
