/**
 * A call that only waits on a process the agent started: Codex's `write_stdin` with no input (`"chars": ""`,
 * or no `chars` at all: Codex's default is the empty string) sends nothing and returns what the running
 * command printed within `yield_time_ms` ("Process running with session ID 3538"). It is a poll paced by the
 * tool itself, as `sleep 30 && gh run list` is paced by the agent: what ends it is the process finishing, not
 * the agent trying something else (outcome-facts.ts gives it CallFact.PACED, so a loop through it is asked
 * about, never broken: evidence-screen.ts waitsOnOthers).
 *
 * How long such a call waited is its `yield_time_ms` (the most Codex waits for output before it answers that
 * the process still runs; what Codex's `Wall time` header says of a still-running answer, which the readers
 * leave out of the result: codex-exec-header.ts): the evidence screen bounds a wait by it (WAIT_LIMIT_MS).
 */
import { argMember } from '../fingerprint/json-args-text.js';

/** Tools that write to a running process's standard input (Codex CLI's unified exec). */
const STDIN_TOOLS: ReadonlySet<string> = new Set(['write_stdin']);

/** Tools of Codex's unified exec, whose `yield_time_ms` says how long a call waits on its process. */
const EXEC_TOOLS: ReadonlySet<string> = new Set(['write_stdin', 'exec_command']);

/** Whether a call of `tool` with `args` writes nothing to a running process: it waits for its output. */
export function pollsARunningProcess(tool: string, args: unknown): boolean {
  if (!STDIN_TOOLS.has(tool) || typeof args !== 'object' || args === null || Array.isArray(args)) return false;
  const chars = argMember(args, 'chars');
  return chars === '' || chars === undefined;
}

/** Longest wait one call is taken to have made, in milliseconds (a larger `yield_time_ms` reads as this). */
const MAX_WAIT_MS = 300_000;

/**
 * How long a call of Codex's unified exec waited on its process, in whole milliseconds (its `yield_time_ms`,
 * at most MAX_WAIT_MS); 0 for another tool or where its args do not say.
 */
export function waitedMs(tool: string, args: unknown): number {
  if (!EXEC_TOOLS.has(tool) || typeof args !== 'object' || args === null || Array.isArray(args)) return 0;
  const ms = argMember(args, 'yield_time_ms');
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? Math.min(Math.round(ms), MAX_WAIT_MS) : 0;
}
