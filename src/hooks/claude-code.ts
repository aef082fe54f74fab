/**
 * Claude Code (and the Claude Agent SDK, which runs the same hooks): PreToolUse before a call,
 * PostToolUse after it succeeded, PostToolUseFailure after it failed (`error`, `is_interrupt`),
 * UserPromptSubmit (a new prompt: the session's fresh start), SessionEnd.
 *
 * Output (https://code.claude.com/docs/en/hooks), by decision:
 * - allow: nothing (Claude's own permission rules apply: a hook's `permissionDecision: "allow"` would
 *   skip the user's prompts, so loopwatch never says it);
 * - warn: `hookSpecificOutput.additionalContext`, which Claude reads before the call runs;
 * - ask: `permissionDecision: "ask"`, the reason shown to the user in the prompt;
 * - deny: `permissionDecision: "deny"`, the reason shown to Claude instead of a result;
 * - stop: `continue: false` with `stopReason` (Claude stops; the user sees the reason), and the deny;
 * - after the call (warn): `additionalContext` on PostToolUse / PostToolUseFailure.
 *
 * Claude Code reads PreToolUse's `additionalContext` from 2.1.9 on; before, a warning is given after the
 * call instead (agent-versions.ts), and an ask carries its reason alone.
 */
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, type ReplyContext, afterCallContext, hookJson } from './hook-agent.js';
import { callIdOf, capText, capValue, inputOf, sessionOf, toolOf } from './hook-payload.js';

/** Bash's `description` is the model's free text about the command: two runs of one command differ in it. */
const VOLATILE_INPUT = ['description'];

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall {
  const session = sessionOf(p);
  if (phase === 'end' || phase === 'prompt') return { agent: 'claude-code', eventName, phase, session, call: { tool: eventName } };
  const tool = toolOf(p);
  const id = callIdOf(p);
  const args = inputOf(p, tool === 'Bash' ? VOLATILE_INPUT : []);
  const base = { tool, args, ...(id === undefined ? {} : { id }) };
  if (phase === 'propose') return { agent: 'claude-code', eventName, phase, session, call: base };
  if (eventName === 'PostToolUseFailure') {
    const error = typeof p.error === 'string' && p.error !== '' ? capText(p.error) : p.is_interrupt === true ? 'interrupted' : true;
    return { agent: 'claude-code', eventName, phase, session, call: { ...base, error } };
  }
  return { agent: 'claude-code', eventName, phase, session, call: { ...base, result: capValue(p.tool_response) } };
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
      return hookJson({ continue: false, stopReason: m, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } }, ctx);
  }
}

/** The Claude Code codec. */
export const CLAUDE_CODE: HookAgent = {
  name: 'claude-code',
  title: 'Claude Code',
  events: { propose: ['PreToolUse'], record: ['PostToolUse', 'PostToolUseFailure'], prompt: ['UserPromptSubmit'], end: ['SessionEnd'] },
  editTools: ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
  decode,
  reply,
};
