/**
 * The session a mini-swe-agent trajectory names. Its batch runs (`mini-extra swebench`, 1.x's
 * `run/extra/swebench.py` and 2.x's `run/benchmarks/swebench.py`) write one `<instance_id>.traj.json` per task
 * with the task's `instance_id` at the top level beside `info`, `messages` and `trajectory_format`; a
 * record's own `session` / `id` / `conversation_id` still wins. Without this a batch of 500 runs read as 500
 * sessions all named `<file>:1`, told apart only by their folders. A single run (`mini`, which saves
 * `last_mini_run.traj.json` or the `-o` file it is given) names no task: it is named by its file, the file's
 * stem (`last_mini_run`, `fix-login` of `runs/fix-login.traj.json`), as a harness naming its runs by their
 * output files expects, rather than `<path>:1` (only a `.json` file that is the run: one line of a `.jsonl`
 * keeps its place's name).
 */
import { basename } from 'node:path';
import { isRecord } from './json-value.js';
import { isMiniSweTrajectory } from './mini-swe-text.js';

/** The stem of trajectory file `file`: its name without `.traj.json` (else `.json`); undefined for a file of another kind (a `.jsonl` of many runs) or nothing left. */
export function trajectoryStem(file: string): string | undefined {
  const name = basename(file);
  const ext = name.endsWith('.traj.json') ? '.traj.json' : name.endsWith('.json') ? '.json' : undefined;
  return ext === undefined || name.length === ext.length ? undefined : name.slice(0, name.length - ext.length);
}

/**
 * The session of conversation record `value` of `file`, `opened` the one its fields or its place gave,
 * `fallback` its place's: a mini-swe-agent trajectory's `instance_id` when no field named one, else its
 * file's stem (see the header).
 */
export function miniSweSession(value: unknown, opened: string, fallback: string, file: string): string {
  if (opened !== fallback || !isRecord(value) || !isMiniSweTrajectory(value)) return opened;
  const id = value.instance_id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  // the whole file is the run (a `.json` read as one record): named by the file
  return fallback === `${file}:1` ? (trajectoryStem(file) ?? opened) : opened;
}
