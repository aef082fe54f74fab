/**
 * The session a mini-swe-agent trajectory names. Its batch runs (`mini-extra swebench`, 1.x's
 * `run/extra/swebench.py` and 2.x's `run/benchmarks/swebench.py`) write one `<instance_id>.traj.json` per task
 * with the task's `instance_id` at the top level beside `info`, `messages` and `trajectory_format`; a
 * record's own `session` / `id` / `conversation_id` still wins. Without this a batch of 500 runs read as 500
 * sessions all named `<file>:1`, told apart only by their folders.
 */
import { isRecord } from './json-value.js';
import { isMiniSweTrajectory } from './mini-swe-text.js';

/** The session of conversation record `value`, `opened` the one its fields or its place gave, `fallback` its place's: a mini-swe-agent trajectory's `instance_id` when no field named one. */
export function miniSweSession(value: unknown, opened: string, fallback: string): string {
  if (opened !== fallback || !isRecord(value) || !isMiniSweTrajectory(value)) return opened;
  const id = value.instance_id;
  if (typeof id === 'string' && id !== '') return id;
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : opened;
}
