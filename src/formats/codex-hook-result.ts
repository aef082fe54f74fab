/**
 * What a Codex CLI hook's `tool_response` (PostToolUse) says about its call, as the Codex hook reads it
 * (src/hooks/codex.ts) and the hook payload log reader reads a logged Codex payload (hook-payloads.ts):
 * one function, so a call's outcome is the same whether the hook saw it or a log of its payloads is read.
 *
 * Codex sends PostToolUse for a call whose tool answered (a failed command too; a patch that did not apply or
 * an MCP tool's `isError` get none in 0.171: src/hooks/codex-missed-outcomes.ts). Bash's response is the text the
 * model reads, read as the rollout reader reads a `function_call_output` (codex-output.ts: the `Command:`
 * echo, "Exit code: N" / "Process exited with code N" headers, `Wall time:` timings, older JSON with
 * `metadata.exit_code`): a non-zero exit code is a failure, and the result is the output alone, so two
 * runs of a command with the same output have the same outcome. An MCP tool's response is an object:
 * `isError`, `is_error`, `success: false` or a non-zero `exit_code` / `exitCode` is a failure (its JSON
 * the error). Anything else is the result as it is.
 */
import { codexOutcome } from './codex-output.js';
import { type Outcome, failure } from './held-calls.js';

/**
 * Whether a hook payload carries Codex CLI's marks: its PreToolUse/PostToolUse/UserPromptSubmit payloads
 * have `turn_id` and `model`, Claude Code's, which share those event names, do not. The one rule for the
 * hooks' agent detection (src/hooks/agents.ts) and the hook payload log reader (hook-payloads.ts).
 */
export function hasCodexMarks(p: Readonly<Record<string, unknown>>): boolean {
  return p.turn_id !== undefined || p.model !== undefined;
}

/**
 * What the Codex hook `tool_response` `r` says (see the header), in the rollout reader's terms (held-calls.ts's
 * Outcome): a failure is {@link failure} of its output, so one that printed nothing is `error: true` with an
 * empty result, as `scan` and `eval` read the same call from the rollout, never an empty error text (which
 * every part reads as no error at all). Uncapped: the hook caps it.
 */
export function codexHookOutcome(r: unknown): Outcome {
  if (typeof r === 'string') {
    const o = codexOutcome(r);
    return o.errorInfo === 'known' ? failure(o.result) : { result: o.result, errorInfo: 'absent' };
  }
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return { result: r, errorInfo: 'absent' };
  const o = r as Record<string, unknown>;
  const exit = o.exit_code ?? o.exitCode;
  const failed = (typeof exit === 'number' && exit !== 0) || o.isError === true || o.is_error === true || o.success === false;
  return failed ? failure(JSON.stringify(o)) : { result: o, errorInfo: 'absent' };
}
