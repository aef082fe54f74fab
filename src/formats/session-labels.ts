/**
 * Labels of sessions: how each run ended, read from a JSON Lines file beside the traces (plain or gzip).
 * One object a line, keyed by the session id the traces use:
 *
 * ```json
 * {"session": "run-17", "exit_status": "step_limit", "resolved": false, "agent": "SWE-agent"}
 * ```
 *
 * - `session` (string, required): the session id, as the trace readers name it;
 * - `exit_status` (string), else `label` (string): the label, e.g. `submitted`, `step_limit`, `exit_cost`;
 * - `resolved` (boolean, optional): whether the run solved its task; `agent` (string, optional).
 *
 * Other fields are ignored (`../shared/data/traces/sessions.jsonl` has a dozen). Bad lines are issues
 * naming the file and line, the rest is still read; the first label of a session id wins and a second
 * one is an issue. At most {@link MAX_LABELS} labels are kept (more are one issue), so memory is bounded
 * by that and not by the file. Used by `loopwatch scan` (the report's label column); meant for anything
 * that judges verdicts against how runs ended.
 */
import { existsSync, statSync } from 'node:fs';
import { inputBytes } from './byte-source.js';
import { isRecord, parseJson } from './json-value.js';
import { readLines } from './line-reader.js';
import { type TraceIssue, issue } from './trace-record.js';

/** The file name a labels file beside the traces goes by (picked up by `scan` when it looks like labels). */
export const LABELS_FILE_NAME = 'sessions.jsonl';
/** Most labels kept from one file. */
export const MAX_LABELS = 1_000_000;
/** Longest labels line read, in bytes; longer ones are `too-long` issues. */
export const MAX_LABEL_LINE_BYTES = 1024 * 1024;
/** Longest label or agent name kept, in characters (longer ones are cut with `…`). */
export const MAX_LABEL_LENGTH = 200;
/** Issues kept from one file (the rest are counted in `skipped`). */
export const MAX_LABEL_ISSUES = 100;

/** How one session ended. */
export interface SessionLabel {
  readonly session: string;
  /** The record's `exit_status`, else its `label`. */
  readonly label: string;
  /** Whether the run solved its task, when the record says. */
  readonly resolved: boolean | null;
  /** The agent that ran it, when the record says. */
  readonly agent: string | null;
}

/** The labels of one file, and what could not be read of it. */
export interface SessionLabels {
  /** The file read. */
  readonly file: string;
  /** Labels by session id. */
  readonly labels: ReadonlyMap<string, SessionLabel>;
  /** The first {@link MAX_LABEL_ISSUES} lines skipped (bad JSON, wrong shape, duplicate session, past {@link MAX_LABELS}), each naming file and line. */
  readonly issues: readonly TraceIssue[];
  /** Lines skipped in all (the issues kept and those past them). */
  readonly skipped: number;
}

const cap = (s: string): string => (s.length > MAX_LABEL_LENGTH ? `${s.slice(0, MAX_LABEL_LENGTH - 1)}…` : s);

/** Whether `v` is a labels record: an object with a string `session` and a string `exit_status` or `label`, and no `tool`. */
export function isLabelRecord(v: unknown): v is Record<string, unknown> & { session: string } {
  return isRecord(v) && typeof v.session === 'string' && (typeof v.exit_status === 'string' || typeof v.label === 'string') && !('tool' in v);
}

/** The label `v` gives, or why it gives none. */
export function labelOf(v: unknown): SessionLabel | string {
  if (!isRecord(v)) return 'not a JSON object';
  if (typeof v.session !== 'string') return 'no "session" string';
  const label = typeof v.exit_status === 'string' ? v.exit_status : typeof v.label === 'string' ? v.label : null;
  if (label === null) return `no "exit_status" or "label" string for session ${JSON.stringify(cap(v.session))}`;
  return {
    session: v.session,
    label: cap(label),
    resolved: typeof v.resolved === 'boolean' ? v.resolved : null,
    agent: typeof v.agent === 'string' ? cap(v.agent) : null,
  };
}

/** Reads the labels file `path` (JSON Lines, plain or gzip). Never throws: an unreadable file is one issue. */
export async function readSessionLabels(path: string, maxLabels: number = MAX_LABELS): Promise<SessionLabels> {
  const labels = new Map<string, SessionLabel>();
  const issues: TraceIssue[] = [];
  let skipped = 0;
  const skip = (i: TraceIssue): void => {
    if (skipped++ < MAX_LABEL_ISSUES) issues.push(i);
  };
  if (!existsSync(path)) {
    skip(issue('missing-input', path, 0, 'no such labels file'));
    return { file: path, labels, issues, skipped };
  }
  for await (const l of readLines(inputBytes(path), { file: path, maxLineBytes: MAX_LABEL_LINE_BYTES })) {
    if (l.kind === 'issue') {
      skip(l);
      continue;
    }
    const parsed = parseJson(l.text);
    if (!parsed.ok) {
      skip(issue('invalid-json', path, l.line, parsed.message));
      continue;
    }
    const got = labelOf(parsed.value);
    if (typeof got === 'string') skip(issue('bad-record', path, l.line, `not a session label: ${got}`));
    else if (labels.has(got.session)) skip(issue('bad-record', path, l.line, `session ${JSON.stringify(cap(got.session))} is labelled again; the first label is kept`));
    else if (labels.size >= maxLabels) skip(issue('bad-record', path, l.line, `more than ${maxLabels} labels: not kept`));
    else labels.set(got.session, got);
  }
  return { file: path, labels, issues, skipped };
}

/**
 * Whether `path` is a regular file (or a link to one). A labels file loopwatch finds by itself (beside the
 * traces, or a folder's `sessions.jsonl`) is read only then: a FIFO or a link to `/dev/zero` planted under
 * the name would block the read or never end it. A file the user names (`--labels`) that is not one is refused
 * when it is opened (regular-file.ts), with an issue naming it.
 */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether the first record of `path` (within its first {@link MAX_LABEL_LINE_BYTES}) is a labels record; false for anything but a regular file. Never throws. */
export async function looksLikeLabels(path: string): Promise<boolean> {
  if (!isRegularFile(path)) return false;
  try {
    for await (const l of readLines(inputBytes(path), { file: path, maxLineBytes: MAX_LABEL_LINE_BYTES })) {
      if (l.kind === 'issue') return false;
      const parsed = parseJson(l.text);
      return parsed.ok && isLabelRecord(parsed.value);
    }
  } catch {
    // unreadable: not a labels file we can use
  }
  return false;
}
