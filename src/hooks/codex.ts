/**
 * Codex CLI: PreToolUse before a call, PostToolUse after it ran (a failure is read from `tool_response`, see
 * outcomeOf; a failure in the tool itself comes without one, see below), for Bash, apply_patch and MCP tools; UserPromptSubmit (a new
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
 * Codex 0.171 sends a command's output alone as its `tool_response` (no exit code): the exit code is then
 * read from the rollout, where the call's end is already written (codex-exit-code.ts).
 *
 * Codex 0.171 sends no PostToolUse for a call whose tool failed on its own (a patch that does not apply, an
 * MCP tool's `isError`): the outcome is read from the rollout when a later hook of the session runs
 * (codex-missed-outcomes.ts), and recorded before that hook's own call.
 *
 * SessionEnd (0.171: `{session_id, transcript_path, cwd, hook_event_name, reason}`, none of a call's `turn_id`
 * or `model`) ends the session: its state is removed, as Claude Code's SessionEnd removes its own, rather
 * than kept until the 7-day sweep.
 *
 * A shell call's `tool_input` is its command alone; the call's arguments are read from the rollout as it
 * records them, so that the hook and `scan` of the rollout compare the same calls (codex-recorded-call.ts).
 *
 * Codex before 0.129 refuses PreToolUse's `additionalContext` (the hook counts as failed, the warning is
 * lost): for those versions (agent-versions.ts) a warning is given after the call instead, and an ask is
 * told to the user alone.
 */
import { type HostReach, hostMessage } from '../live/host-message.js';
import type { LiveDecision } from '../live/live-call.js';
import { type HookAgent, type HookCall, type HookPhase, type ReplyContext, afterCallContext, hookJson } from './hook-agent.js';
import { codexHookOutcome } from '../formats/codex-hook-result.js';
import { callIdOf, capText, capValue, inputOf, promptOf, sessionOf, toolOf } from './hook-payload.js';
import { withRolloutExitCode } from './codex-exit-code.js';
import { missedResponses } from './codex-missed-outcomes.js';
import { recordedShellArgs } from './codex-recorded-call.js';
import { codexTurn } from './transcript-turn.js';
import type { TranscriptTrust } from './transcript-open.js';
import type { LiveCall } from '../live/live-call.js';
import { isDeclined } from '../text/failure-kinds.js';

/**
 * The outcome a tool response says (src/formats/codex-hook-result.ts, which the hook payload log reader
 * shares: a call's outcome is the same whether read from the hook, a log of its payloads or the rollout),
 * its texts capped.
 */
function outcomeOf(r: unknown): { readonly result: unknown; readonly error?: string | true } {
  const o = codexHookOutcome(r);
  const result = typeof o.result === 'string' ? capText(o.result) : o.result;
  if (o.errorInfo !== 'known') return { result };
  // a failure that printed nothing is `error: true` (the rollout reader's reading), not an empty text
  return { result, error: typeof o.error === 'string' ? capText(o.error) : true };
}

function decode(p: Readonly<Record<string, unknown>>, eventName: string, phase: HookPhase, trust: TranscriptTrust = 'agent'): HookCall {
  const session = sessionOf(p);
  if (phase === 'end') return { agent: 'codex', eventName, phase, session, call: { tool: eventName } };
  if (phase === 'prompt') return { agent: 'codex', eventName, phase, session, call: { tool: eventName }, ...promptOf(p) };
  const tool = toolOf(p);
  const id = callIdOf(p);
  // a shell call as the rollout records it, where it is there (codex-recorded-call.ts): as `scan` reads it
  const args = (tool === 'Bash' ? recordedShellArgs(p, trust) : undefined) ?? inputOf(p);
  const base = { tool, args, ...(id === undefined ? {} : { id }) };
  if (phase === 'propose') return { agent: 'codex', eventName, phase, session, call: base };
  return { agent: 'codex', eventName, phase, session, call: { ...base, ...outcomeOf(withRolloutExitCode(capValue(p.tool_response), p, trust)) } };
}

/**
 * The PostToolUse records Codex never sent for calls of `waiting` that the rollout shows answered
 * (codex-missed-outcomes.ts), their outcome read as a PostToolUse's `tool_response` is, their turn as a
 * PostToolUse's. A call the person declined or interrupted (`patch rejected by user`, `aborted`) is left
 * out: it did not run, and stays waiting to be taken so.
 */
function missedRecords(p: Readonly<Record<string, unknown>>, waiting: readonly LiveCall[], trust: TranscriptTrust = 'agent'): HookCall[] {
  const session = sessionOf(p);
  const out: HookCall[] = [];
  for (const { call, response } of missedResponses(p, waiting, trust)) {
    const outcome = outcomeOf(capValue(response));
    if (typeof outcome.error === 'string' && isDeclined(outcome.error)) continue;
    const round = codexTurn({ transcript_path: p.transcript_path, tool_use_id: call.id }, trust);
    out.push({ agent: 'codex', eventName: 'PostToolUse', phase: 'record', session, call: { id: call.id, tool: call.tool, args: call.args, ...outcome, ...(round === undefined ? {} : { round }) } });
  }
  return out;
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
  events: { propose: ['PreToolUse'], record: ['PostToolUse'], decline: [], prompt: ['UserPromptSubmit'], end: ['SessionEnd'] },
  editTools: ['apply_patch'],
  decode,
  turn: codexTurn,
  missedRecords,
  reply,
};
