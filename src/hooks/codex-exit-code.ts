/**
 * A Codex command's exit code, read from the rollout when the hook payload does not say it.
 *
 * Codex 0.171's PostToolUse `tool_response` for a unified exec command (`exec_command`, the tool its models
 * use for the shell) is the command's output alone: `cat: missing.txt: No such file or directory\n`, no
 * "Process exited with code 1" header, so a failed command read as a success in the hook, while the
 * rollout's `function_call_output` (what the model reads, and what `scan` reads) says it failed. When the
 * PostToolUse hook runs, the rollout already holds the call's end (seen in every run walked), its
 * `function_call_output` not yet:
 *
 * ```json
 * {"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_1","status":"failed","exit_code":1,...}}}
 * ```
 *
 * (older rollouts: `{"type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_1","exit_code":1,...}}`).
 * So a response text that says no exit code is given the one the rollout says, as the header the rollout
 * reader knows (src/formats/codex-output.ts): `Process exited with code N\nOutput:\n<text>`. Bounded and
 * fail-open as the turn's read (transcript-turn.ts): the rollout's last TURN_LOOK bytes, a few lines
 * parsed; not found, the response is read as it is. Only a file named `.jsonl` (a rollout's name) is read,
 * whoever sent the payload: `loopwatch serve`'s hook route decodes a client's payload with the same codec,
 * and reads it by the served rule (no link, one name, its user's or readable by anyone: transcript-open.ts).
 */
import { codexOutcome } from '../formats/codex-output.js';
import { readTranscriptPart } from './transcript-part.js';
import { TURN_LOOK, lastLine } from './transcript-turn.js';
import type { TranscriptTrust } from './transcript-open.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The exit code of a rollout line's end of call `id`, or undefined when the line is not one. */
function endedWith(v: unknown, id: string): number | undefined {
  if (!isRecord(v) || v.type !== 'event_msg' || !isRecord(v.payload)) return undefined;
  const p = v.payload;
  if (p.type === 'item_completed' && isRecord(p.item) && p.item.id === id && typeof p.item.exit_code === 'number') return p.item.exit_code;
  if (p.type === 'exec_command_end' && p.call_id === id && typeof p.exit_code === 'number') return p.exit_code;
  return undefined;
}

/** The exit code the rollout (`transcript_path`) says call `tool_use_id` of payload `p` ended with, or undefined. */
export function rolloutExitCode(p: Readonly<Record<string, unknown>>, trust: TranscriptTrust = 'agent'): number | undefined {
  const id = p.tool_use_id;
  const path = p.transcript_path;
  if (typeof id !== 'string' || id === '' || typeof path !== 'string' || !path.endsWith('.jsonl')) return undefined;
  const part = readTranscriptPart(path, 'tail', TURN_LOOK, trust);
  if (part === null) return undefined;
  const line = lastLine(part, JSON.stringify(id), (v) => endedWith(v, id) !== undefined);
  return line === null ? undefined : endedWith(line.value, id);
}

/**
 * PostToolUse's `tool_response` of payload `p`, with the exit code the rollout says when it is a text that
 * says none (see the header); otherwise `response` as it is.
 */
export function withRolloutExitCode(response: unknown, p: Readonly<Record<string, unknown>>, trust: TranscriptTrust = 'agent'): unknown {
  if (typeof response !== 'string' || codexOutcome(response).errorInfo !== 'unknown') return response;
  const code = rolloutExitCode(p, trust);
  return code === undefined ? response : `Process exited with code ${code}\nOutput:\n${response}`;
}
