/**
 * Claude Code (and the Claude Agent SDK, which runs the same hooks): PreToolUse before a call,
 * PostToolUse after it succeeded, PostToolUseFailure after it failed (`error`, `is_interrupt`), SessionEnd.
 *
 * Output (https://code.claude.com/docs/en/hooks), by decision:
 * - allow: nothing (Claude's own permission rules apply: a hook's `permissionDecision: "allow"` would
 *   skip the user's prompts, so loopwatch never says it);
 * - warn: `hookSpecificOutput.additionalContext`, which Claude reads before the call runs;
 * - ask: `permissionDecision: "ask"`, the reason shown to the user in the prompt;
 * - deny: `permissionDecision: "deny"`, the reason shown to Claude instead of a result;
 * - stop: `continue: false` with `stopReason` (Claude stops; the user sees the reason), and the deny;
 * - after the call (warn): `additionalContext` on PostToolUse / PostToolUseFailure.
 */
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, hookJson } from './hook-agent.js';
import { callIdOf, capText, capValue, inputOf, sessionOf, toolOf } from './hook-payload.js';

/** Bash's `description` is the model's free text about the command: two runs of one command differ in it. */
const VOLATILE_INPUT = ['description'];

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall {
  const session = sessionOf(p);
  if (phase === 'end') return { agent: 'claude-code', eventName, phase, session, call: { tool: 'SessionEnd' } };
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

function reply(c: HookCall, d: LiveDecision): string {
  const m = d.message ?? '';
  if (c.phase === 'record') return d.action === 'warn' ? hookJson({ hookSpecificOutput: { hookEventName: c.eventName, additionalContext: m } }) : '';
  switch (d.action) {
    case 'allow':
      return '';
    case 'warn':
      return hookJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: m } });
    case 'ask':
      return hookJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: m, additionalContext: m } });
    case 'deny':
      return hookJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } });
    case 'stop':
      return hookJson({ continue: false, stopReason: m, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } });
  }
}

/** The Claude Code codec. */
export const CLAUDE_CODE: HookAgent = {
  name: 'claude-code',
  title: 'Claude Code',
  events: { propose: ['PreToolUse'], record: ['PostToolUse', 'PostToolUseFailure'], end: ['SessionEnd'] },
  decode,
  reply,
};
