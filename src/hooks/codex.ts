/**
 * Codex CLI: PreToolUse before a call, PostToolUse after it ran (success or failure alike: the failure is
 * read from `tool_response`, see outcomeOf), for Bash, apply_patch and MCP tools; UserPromptSubmit (a new
 * prompt: the session's fresh start). Payloads carry `turn_id` and `model`, which Claude Code's do not;
 * `turn_id` names the user's turn, so a call's model turn is read from the rollout's end (transcript-turn.ts).
 *
 * Codex parses hook output strictly (codex-rs/hooks output_parser.rs): an unknown field, a
 * `permissionDecision` of "allow" (without `updatedInput`) or "ask", or `continue: false` on PreToolUse
 * make the hook count as failed and the call run. So, by decision:
 * - allow: nothing;
 * - warn: `hookSpecificOutput.additionalContext` (the model reads it);
 * - ask: Codex has no ask from a hook: the context, and `systemMessage` for the user;
 * - deny: `permissionDecision: "deny"` with the reason, which the model reads;
 * - stop: the deny (PreToolUse cannot stop a Codex run), `systemMessage` telling the user to stop it;
 * - after the call (warn): `additionalContext` on PostToolUse.
 *
 * Codex before 0.129 refuses PreToolUse's `additionalContext` (the hook counts as failed, the warning is
 * lost): for those versions (agent-versions.ts) a warning is given after the call instead, and an ask is
 * told to the user alone.
 */
import { type HostReach, hostMessage } from '../live/host-message.js';
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, type ReplyContext, afterCallContext, hookJson } from './hook-agent.js';
import { codexOutcome } from '../formats/codex-output.js';
import { callIdOf, capText, capValue, inputOf, sessionOf, toolOf } from './hook-payload.js';
import { codexTurn } from './transcript-turn.js';

/**
 * The outcome a tool response says. Bash's is the output text the model reads, read as the rollout reader
 * reads it (src/formats/codex-output.ts: "Exit code: N" / "Process exited with code N" headers, older
 * JSON with `metadata.exit_code`): a non-zero exit code is a failure, and the result is the output alone,
 * without the header and its timings (a process still running: unknown, the output behind its running line,
 * without the chunk id and wall time, src/formats/codex-exec-header.ts), so two runs of a command with the same output have the same outcome
 * (and a call's outcome is the same whether read from the hook or from the rollout). An MCP tool's is an
 * object: `isError` or `success: false` is a failure.
 */
function outcomeOf(r: unknown): { readonly error: string } | { readonly result: unknown } {
  if (typeof r === 'string') {
    const o = codexOutcome(r);
    const text = typeof o.result === 'string' ? capText(o.result) : o.result;
    return o.errorInfo === 'known' ? { error: typeof text === 'string' ? text : capText(JSON.stringify(text) ?? '') } : { result: text };
  }
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return { result: r };
  const o = r as Record<string, unknown>;
  const exit = o.exit_code ?? o.exitCode;
  const failed = (typeof exit === 'number' && exit !== 0) || o.isError === true || o.is_error === true || o.success === false;
  return failed ? { error: capText(JSON.stringify(o)) } : { result: o };
}

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase): HookCall {
  const session = sessionOf(p);
  if (phase === 'end' || phase === 'prompt') return { agent: 'codex', eventName, phase, session, call: { tool: eventName } };
  const tool = toolOf(p);
  const id = callIdOf(p);
  const base = { tool, args: inputOf(p), ...(id === undefined ? {} : { id }) };
  if (phase === 'propose') return { agent: 'codex', eventName, phase, session, call: base };
  return { agent: 'codex', eventName, phase, session, call: { ...base, ...outcomeOf(capValue(p.tool_response)) } };
}

/** Codex has no ask from a hook, and a hook cannot stop its run: a stop blocks the call and tells the user. */
const CODEX_REACH: HostReach = Object.freeze({ stop: 'user', asks: false });

function reply(c: HookCall, d: LiveDecision, ctx: ReplyContext): string {
  const m = hostMessage(d, CODEX_REACH) ?? '';
  if (c.phase === 'record') {
    const context = afterCallContext(d, ctx);
    return hookJson(context === '' ? {} : { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: context } }, ctx);
  }
  switch (d.action) {
    case 'allow':
      return hookJson({}, ctx);
    case 'warn':
      return hookJson(ctx.warnsBefore ? { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: m } } : {}, ctx);
    case 'ask':
      return hookJson(ctx.warnsBefore ? { systemMessage: m, hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: m } } : { systemMessage: m }, ctx);
    case 'deny':
      return hookJson({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m } }, ctx);
    case 'stop':
      return hookJson(
        {
          systemMessage: `loopwatch: this run keeps looping after its calls were blocked; stop it. ${m}`,
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: m },
        },
        ctx,
      );
  }
}

/** The Codex CLI codec. */
export const CODEX: HookAgent = {
  name: 'codex',
  title: 'Codex CLI',
  events: { propose: ['PreToolUse'], record: ['PostToolUse'], prompt: ['UserPromptSubmit'], end: [] },
  editTools: ['apply_patch'],
  decode,
  turn: codexTurn,
  reply,
};
