/**
 * A Codex shell call's arguments as the rollout records them, for the hook to compare calls as `scan` and
 * `eval` of the rollout do.
 *
 * Codex hands its Bash hook only the command, as one string (`tool_input: {command: "bash -lc ..."}`:
 * codex-rs shell.rs `shell_payload_command`, the `shell` tool's argv shlex-joined; unified_exec's
 * `display_command`), where the rollout's `function_call` holds the call as the model made it:
 * `{command: ["bash","-lc","..."], workdir, timeout_ms, with_escalated_permissions, justification}`. Two
 * readings of one session then differed (docs/evaluation.md, quiet40: devset 0199b887, no verdict as recorded,
 * 4 warnings and 2 breaks in the hook's shape). Codex writes the call's item into the rollout before it runs
 * the tool, so before its PreToolUse hooks (codex-rs core stream_events_utils.rs `handle_output_item_done`:
 * "persist the item immediately, and queue the tool execution"): the hook reads the call's line from the
 * rollout's tail and takes its arguments as the rollout reader does (src/formats/codex.ts: `function_call`
 * arguments parsed, `local_shell_call`'s `action`).
 *
 * Bounded and fail-open as the turn's read (transcript-turn.ts): the last TURN_LOOK bytes, a few lines
 * parsed, `.jsonl` files only; a call not found (not yet written, an unreadable rollout, a line longer than
 * the tail) or not a shell call keeps the payload's `{command}`.
 */
import { parseArguments } from '../formats/json-value.js';
import { capValue } from './hook-payload.js';
import { readTranscriptPart } from './transcript-part.js';
import { TURN_LOOK, lastLine } from './transcript-turn.js';
import type { TranscriptTrust } from './transcript-open.js';

/** The rollout's names of the shell tools Codex hooks as `Bash` (src/options/catch-all-rule.ts lists them as shells too). */
export const CODEX_SHELL_TOOLS: ReadonlySet<string> = new Set(['shell', 'shell_command', 'exec_command', 'container.exec']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A rollout line's shell call of id `id` (`response_item` payload, or a 2025 rollout's bare item), or undefined. */
function shellCall(v: unknown, id: string): Record<string, unknown> | undefined {
  if (!isRecord(v)) return undefined;
  const it = v.type === 'response_item' ? v.payload : v;
  if (!isRecord(it) || (it.call_id ?? it.id) !== id) return undefined;
  if (it.type === 'function_call' && typeof it.name === 'string' && CODEX_SHELL_TOOLS.has(it.name)) return it;
  return it.type === 'local_shell_call' ? it : undefined;
}

/**
 * The recorded arguments of the shell call `tool_use_id` of payload `p` (capped as a payload's input is),
 * or undefined when the rollout does not hold it (see the header).
 */
export function recordedShellArgs(p: Readonly<Record<string, unknown>>, trust: TranscriptTrust = 'agent'): unknown {
  const id = p.tool_use_id;
  const path = p.transcript_path;
  if (typeof id !== 'string' || id === '' || typeof path !== 'string' || !path.endsWith('.jsonl')) return undefined;
  const part = readTranscriptPart(path, 'tail', TURN_LOOK, trust);
  if (part === null) return undefined;
  const line = lastLine(part, JSON.stringify(id), (v) => shellCall(v, id) !== undefined);
  if (line === null) return undefined;
  const it = shellCall(line.value, id)!;
  const args = it.type === 'local_shell_call' ? it.action : parseArguments(it.arguments);
  return args === undefined ? undefined : capValue(args);
}
