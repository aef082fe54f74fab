/**
 * Claude Code (and the Claude Agent SDK, which runs the same hooks): PreToolUse before a call,
 * PostToolUse after it succeeded, PostToolUseFailure after it failed (`error`, `is_interrupt`),
 * PermissionDenied when auto mode's classifier denied a call (`tool_name`, `tool_input`, `tool_use_id`,
 * `reason`; the call did not run: it is taken as not run at once, not when overdue), PostToolBatch (after a
 * turn's calls resolved, `tool_calls`: those still waiting for their outcome did not run, declined by the
 * person (with or without feedback) or an Agent SDK program's `canUseTool`, and are taken as not run at
 * once: declined-in-batch.ts; installed `async`, so it never holds the agent up), UserPromptSubmit (a new
 * prompt: the session's fresh start), SessionEnd, SubagentStop (a subagent's end: `agent_id` names its
 * session) and Interrupt (the person stopped the turn: the subagents it killed send nothing more, so
 * they are ended, the session itself goes on; subagent-states.ts). SessionEnd ends the session's
 * subagents too. SubagentStop and Interrupt are installed `async`.
 *
 * Output (https://code.claude.com/docs/en/hooks), by decision:
 * - allow: nothing (Claude's own permission rules apply: a hook's `permissionDecision: "allow"` would
 *   skip the user's prompts, so loopwatch never says it);
 * - warn: `hookSpecificOutput.additionalContext`, which Claude reads before the call runs;
 * - ask: `permissionDecision: "ask"`, the reason shown to the user in the prompt;
 * - deny: `permissionDecision: "deny"`, the reason shown to Claude instead of a result;
 * - stop: `continue: false` with `stopReason` (Claude stops; the user sees the reason), and the deny;
 * - after the call (warn): `additionalContext` on PostToolUse / PostToolUseFailure;
 * - PermissionDenied: nothing (its `retry` is the user's classifier's business, not loopwatch's);
 * - PostToolBatch: nothing.
 *
 * Claude Code reads PreToolUse's `additionalContext` from 2.1.9 on; before, a warning is given after the
 * call instead (agent-versions.ts), and an ask carries its reason alone.
 *
 * A call's input is compared without Bash's `description`, the model's free text about the command
 * (src/formats/volatile-input.ts, which the transcript reader applies too).
 *
 * A call's model turn (the `message.id` its `tool_use` has in the transcript) is read from the transcript's
 * end (transcript-turn.ts): payloads carry none.
 *
 * A result (`tool_response`) is compared without what differs between two identical runs
 * (src/formats/volatile-output.ts, which the transcript reader applies too): timings, the per-call file and
 * task names of Bash's large or backgrounded output, the file path of a `<persisted-output>` block. Zed's ACP
 * adapter's shell tools (`mcp__acp__Bash`) answer a PostToolUse whose text says `Exited with code N`: N != 0
 * is read as a failure (src/formats/acp-shell-result.ts).
 */
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, type ReplyContext, afterCallContext, hookJson } from './hook-agent.js';
import { volatileFields } from '../formats/volatile-input.js';
import { acpShellFailure } from '../formats/acp-shell-result.js';
import { claudeCodeResult } from '../formats/claude-code-result.js';
import { callIdOf, capText, capValue, inputOf, promptOf, sessionOf, toolOf } from './hook-payload.js';
import { declinedInBatch } from './declined-in-batch.js';
import { claudeCodeTurn } from './transcript-turn.js';
import { stopReasonFor } from './stop-reason.js';

/**
 * `tool_response` (capped) as compared (src/formats/claude-code-result.ts, which the hook payload log reader
 * shares): without what differs between identical runs; Bash's as its text.
 */
function resultOf(tool: string, response: unknown): unknown {
  return capValue(claudeCodeResult(tool, response));
}

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall {
  const session = sessionOf(p);
  if (phase === 'end') return { agent: 'claude-code', eventName, phase, session, call: { tool: eventName } };
  if (phase === 'prompt') return { agent: 'claude-code', eventName, phase, session, call: { tool: eventName }, ...promptOf(p) };
  if (eventName === 'PostToolBatch') {
    // the batch's calls: those still waiting did not run (declined-in-batch.ts)
    const declined = declinedInBatch(p, (c, tool) => inputOf(c, volatileFields('claude-code', tool)));
    return { agent: 'claude-code', eventName, phase, session, call: { tool: eventName }, declined };
  }
  const tool = toolOf(p);
  const id = callIdOf(p);
  const args = inputOf(p, volatileFields('claude-code', tool));
  const base = { tool, args, ...(id === undefined ? {} : { id }) };
  if (phase === 'propose' || phase === 'decline') return { agent: 'claude-code', eventName, phase, session, call: base };
  if (eventName === 'PostToolUseFailure') {
    const error = typeof p.error === 'string' && p.error !== '' ? capText(p.error) : p.is_interrupt === true ? 'interrupted' : true;
    return { agent: 'claude-code', eventName, phase, session, call: { ...base, error } };
  }
  const failed = acpShellFailure(tool, p.tool_response); // Zed's ACP shell tools: the exit code is in the text
  if (failed !== undefined) return { agent: 'claude-code', eventName, phase, session, call: { ...base, error: capText(failed) } };
  return { agent: 'claude-code', eventName, phase, session, call: { ...base, result: resultOf(tool, p.tool_response) } };
}

function reply(c: HookCall, d: LiveDecision, ctx: ReplyContext): string {
  const m = d.message ?? '';
  if (c.phase === 'record') {
    const context = afterCallContext(d, ctx);
    return hookJson(context === '' ? {} : { hookSpecificOutput: { hookEventName: c.eventName, additionalContext: context } }, ctx);
  }
  switch (d.action) {
    case 'allow':
      return hookJson({}, ctx);
    case 'warn':
      return hookJson(ctx.warnsBefore ? { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: m } } : {}, ctx);
    case 'ask': {
      const ask = { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: m };
      return hookJson({ hookSpecificOutput: ctx.warnsBefore ? { ...ask, additionalContext: m } : ask }, ctx);
    }
    case 'deny':
      return hookJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } }, ctx);
    case 'stop':
      return hookJson({ continue: false, stopReason: stopReasonFor(m), hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } }, ctx);
  }
}

/** The Claude Code codec. */
export const CLAUDE_CODE: HookAgent = {
  name: 'claude-code',
  title: 'Claude Code',
  events: { propose: ['PreToolUse'], record: ['PostToolUse', 'PostToolUseFailure'], decline: ['PermissionDenied', 'PostToolBatch'], prompt: ['UserPromptSubmit'], end: ['SessionEnd', 'SubagentStop', 'Interrupt'] },
  editTools: ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
  decode,
  turn: claudeCodeTurn,
  reply,
};
