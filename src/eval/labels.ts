/**
 * The label file of an evaluation: how each run ended, one JSON object a line (`sessions.jsonl`, plain or
 * gzip):
 *
 * ```json
 * {"session": "run-17", "exit_status": "step_limit", "agent": "mini-swe-agent 1.15.0"}
 * ```
 *
 * - `session` (required, non-empty string): the run's session id, as the trace reader names it;
 * - `exit_status` (required, string): `submitted` (the agent finished), `step_limit` (cut off by its step
 *   cap), `exit_cost`, `exit_context` (other limits), `interactive` (a person's session: ordinary work), or
 *   anything else (counted, never judged);
 * - `agent` (optional, string): what produced the run, for the per-family tables (see families.ts);
 * - `loop` (optional, `true`): an interactive session that holds a genuine loop, which should be warned or
 *   broken: judged apart from ordinary work;
 * - `resolved` (optional, boolean): whether the run's work was correct (a benchmark's verdict): a resolved
 *   run broken is correct work a break would have destroyed.
 * Other fields are ignored. A line that is not such an object, or labels a session labelled before, is an
 * issue naming the file and line; the other lines are still read.
 *
 * Matching a run to its label: by the exact session id; else, for ids made from a file name (SWE-agent
 * trajectories, conversations without an id), by the id without its trace extension (`.traj`, `.json`,
 * `.jsonl`, optionally `.gz`), then by that name without its folders (`runs/a/django-1.traj` → `django-1`);
 * for a session named after its file (`FILE:LINE`: a Gemini CLI checkpoint names none), by the file itself
 * however its path was typed (absolute, relative, through a link: src/formats/file-named-labels.ts).
 */
import { basename } from 'node:path';
import { fileNamedLabel } from '../formats/file-named-labels.js';
import { readLabelFileBytes } from '../formats/label-file-bytes.js';
import { fsReason } from '../formats/list-inputs.js';
import { type TraceIssue, issue } from '../formats/trace-record.js';
import { jsonErrorMessage } from '../formats/json-value.js';

/** How one session ended, as its label says. */
export interface SessionLabel {
  readonly session: string;
  readonly exitStatus: string;
  readonly agent: string | undefined;
  /** Whether the label says the session holds a genuine loop (`"loop": true`). */
  readonly loop: boolean;
  /** Whether the label says the run's work was correct (`"resolved"`); undefined when it does not say. */
  readonly resolved?: boolean;
}

/** The labels of a file by session id, and the lines that could not be read. */
export interface LabelBook {
  readonly labels: ReadonlyMap<string, SessionLabel>;
  readonly issues: readonly TraceIssue[];
}

/** Lines of a label file that cannot be used named one by one; the rest are counted in one more issue. */
export const MAX_LABEL_ISSUES = 1000;

const EXTENSION = /\.(jsonl|ndjson|json|traj)(\.gz)?$/i;

function parseLine(text: string, file: string, line: number): SessionLabel | TraceIssue {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return issue('invalid-json', file, line, `not JSON: ${jsonErrorMessage(e)}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return issue('bad-record', file, line, 'a label must be an object {"session", "exit_status", "agent"?}');
  const o = v as Record<string, unknown>;
  if (typeof o.session !== 'string' || o.session === '') return issue('bad-record', file, line, `"session" must be a non-empty string, received ${JSON.stringify(o.session) ?? 'nothing'}`);
  if (typeof o.exit_status !== 'string') return issue('bad-record', file, line, `"exit_status" must be a string, received ${JSON.stringify(o.exit_status) ?? 'nothing'}`);
  if (o.agent !== undefined && o.agent !== null && typeof o.agent !== 'string') return issue('bad-record', file, line, `"agent" must be a string when given, received ${JSON.stringify(o.agent)}`);
  const resolved = typeof o.resolved === 'boolean' ? { resolved: o.resolved } : {};
  return { session: o.session, exitStatus: o.exit_status, agent: typeof o.agent === 'string' ? o.agent : undefined, loop: o.loop === true, ...resolved };
}

/** Reads a label file (plain or gzip). An unreadable file is one issue and no labels. */
export function readLabels(file: string): LabelBook {
  let bytes: Buffer;
  try {
    bytes = readLabelFileBytes(file);
  } catch (e) {
    return { labels: new Map(), issues: [issue('read-error', file, 0, `cannot read the labels: ${fsReason(e)}`)] };
  }
  const labels = new Map<string, SessionLabel>();
  const lineOf = new Map<string, number>();
  const issues: TraceIssue[] = [];
  // the first MAX_LABEL_ISSUES lines that cannot be used are named, the others counted in one last issue
  let unlisted = 0;
  const note = (i: TraceIssue): void => {
    if (issues.length < MAX_LABEL_ISSUES) issues.push(i);
    else unlisted++;
  };
  const lines = bytes.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === '') continue;
    const got = parseLine(text, file, i + 1);
    if ('kind' in got) {
      note(got);
      continue;
    }
    const before = lineOf.get(got.session);
    if (before !== undefined) {
      note(issue('bad-record', file, i + 1, `session ${JSON.stringify(got.session)} is already labelled on line ${before}; this label is skipped`));
      continue;
    }
    labels.set(got.session, got);
    lineOf.set(got.session, i + 1);
  }
  if (unlisted > 0) issues.push(issue('bad-record', file, 0, `${unlisted} more lines could not be used as labels (not named)`));
  return { labels, issues };
}

/**
 * The label of the run whose session id is `session` (see the module comment), if any; `labelsDir`, the
 * labels file's folder, lets a session named after its file find its label however the path was typed.
 */
export function labelFor(labels: ReadonlyMap<string, SessionLabel>, session: string, labelsDir?: string): SessionLabel | undefined {
  const exact = labels.get(session);
  if (exact !== undefined) return exact;
  const bare = session.replace(EXTENSION, '');
  const named = labels.get(bare) ?? labels.get(basename(bare));
  if (named !== undefined || labelsDir === undefined) return named;
  return fileNamedLabel(labels, session, labelsDir);
}
