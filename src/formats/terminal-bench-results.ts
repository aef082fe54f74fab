/**
 * Terminal-Bench 1's run output (`tb run`, the harness before Harbor), which holds no calls loopwatch reads:
 * a run folder `<run id>/` with `results.json` (`{id, results: [trial results], pass_at_k, n_resolved,
 * n_unresolved, resolved_ids, unresolved_ids, accuracy}`), `run_metadata.json` (`{run_id, uuid,
 * dataset_name, output_path, agent_name, task_ids, ...}`), `tb.lock` and `run.log`, and one folder per task
 * and trial, `<task>/<trial>/`, holding the trial's `results.json` (`{id, trial_name, task_id, instruction,
 * is_resolved, failure_mode, parser_results, ...}`), `commands.txt` (the keys the harness typed into tmux),
 * `panes/` (the terminal's screen before and after) and `sessions/` (asciinema recordings, `agent.cast`,
 * and their text, `agent.log`). The agent's session is kept as a terminal recording, keystrokes and screens,
 * not as calls and results; the Terminus agent also writes its own log, `agent-logs/episode-N/` (its prompts
 * and replies, keystrokes and screens too: terminus-episodes.ts), which a run folder's note counts
 * (terminal-bench-run-folder.ts). These JSON documents are told by their keys and passed over with a note saying
 * what they are (no skip), where they were `unknown-format` issues and a run folder's scan exited 2 for
 * them; a scan that finds no call in them still exits 2 unless `--allow-empty`, as any scan without calls.
 * A run folder walked whole says them in one note instead (terminal-bench-run-folder.ts).
 */
import { isRecord } from './json-value.js';

/** Most characters of a name (task, agent) quoted in a note. */
const NAME_CHARS = 80;

const quoted = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v.slice(0, NAME_CHARS)) : 'unnamed');

/** Where a Terminal-Bench 1 trial keeps its agent's session, in the words of the notes. */
export const TERMINAL_BENCH_RECORDING = "tb run keeps the agent's session as a terminal recording (sessions/agent.cast and agent.log, commands.txt, panes/)";

/** Why what a Terminal-Bench 1 trial keeps of its agent's session is not read, in the words of the notes. */
export const TERMINAL_BENCH_NOT_CALLS = 'keystrokes and screens rather than calls, which loopwatch does not read';

/** Where a Terminal-Bench 1 trial keeps its agent's session, and why it is not read. */
export const TERMINAL_BENCH_WHY = `${TERMINAL_BENCH_RECORDING}, ${TERMINAL_BENCH_NOT_CALLS}`;

/** Whether `v` is one trial's `results.json`. */
function isTrialResults(v: Readonly<Record<string, unknown>>): boolean {
  return typeof v.trial_name === 'string' && typeof v.task_id === 'string' && 'is_resolved' in v && 'failure_mode' in v && 'parser_results' in v;
}

/**
 * The note's message for a Terminal-Bench 1 document `v` (a trial's or a run's `results.json`, a run's
 * `run_metadata.json`), or null when `v` is none of them.
 */
export function terminalBenchNote(v: unknown): string | null {
  if (!isRecord(v)) return null;
  if (isTrialResults(v)) {
    const resolved = typeof v.is_resolved === 'boolean' ? String(v.is_resolved) : 'not known';
    return `passed over: a Terminal-Bench 1 trial's results (task ${quoted(v.task_id)}, resolved: ${resolved}), its outcome and no calls: ${TERMINAL_BENCH_WHY}`;
  }
  if (Array.isArray(v.results) && 'n_resolved' in v && 'accuracy' in v && (v.results.length === 0 || (isRecord(v.results[0]) && isTrialResults(v.results[0])))) {
    return `passed over: a Terminal-Bench 1 run's results (${v.results.length} ${v.results.length === 1 ? 'trial' : 'trials'}), the outcomes of its trials and no calls: ${TERMINAL_BENCH_WHY}`;
  }
  if (typeof v.run_id === 'string' && typeof v.agent_name === 'string' && 'output_path' in v && Array.isArray(v.task_ids)) {
    return `passed over: a Terminal-Bench 1 run's run_metadata.json (agent ${quoted(v.agent_name)}), its settings and no calls`;
  }
  return null;
}
