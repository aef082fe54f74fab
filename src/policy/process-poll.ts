/**
 * A call that only waits on a process the agent started: Codex's `write_stdin` with no input (`"chars": ""`)
 * sends nothing and returns what the running command printed within `yield_time_ms` ("Process running with
 * session ID 3538"). It is a poll paced by the tool itself, as `sleep 30 && gh run list` is paced by the
 * agent: what ends it is the process finishing, not the agent trying something else (outcome-facts.ts gives
 * it CallFact.PACED, so a loop through it is asked about, never broken: evidence-screen.ts waitsOnOthers).
 */
import { argMember } from '../fingerprint/json-args-text.js';

/** Tools that write to a running process's standard input (Codex CLI's unified exec). */
const STDIN_TOOLS: ReadonlySet<string> = new Set(['write_stdin']);

/** Whether a call of `tool` with `args` writes nothing to a running process: it waits for its output. */
export function pollsARunningProcess(tool: string, args: unknown): boolean {
  if (!STDIN_TOOLS.has(tool) || typeof args !== 'object' || args === null || Array.isArray(args)) return false;
  return argMember(args, 'chars') === '';
}
