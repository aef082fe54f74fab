/**
 * The labels of a scan's sessions: from `--labels FILE` (every session, by its id), else from a labels
 * file (`sessions.jsonl` whose first record is a label) found in a folder given to scan or beside a file
 * given to scan; such a file labels the sessions of the files in and below its folder (the deepest one
 * wins) and is not read as a trace. What was picked up is said on stderr, so a label never comes from a
 * file nobody named without the user hearing of it. A session named after its file (`FILE:LINE`) finds its
 * label however the path was typed (src/formats/file-named-labels.ts).
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileNamedLabel } from '../../formats/file-named-labels.js';
import { LABELS_FILE_NAME, type SessionLabel, type SessionLabels, looksLikeLabels, readSessionLabels } from '../../formats/session-labels.js';
import { STDIN_PATH } from '../../formats/list-inputs.js';
import type { TraceIssue } from '../../formats/trace-record.js';
import { UsageError } from '../usage-error.js';

/** The labels a scan uses. */
export interface ScanLabels {
  /** The label of the session `session` of the input `file`. */
  labelOf(file: string, session: string): SessionLabel | undefined;
  /** Labels files found beside the inputs: a folder walk passes over them. */
  readonly ignore: readonly string[];
  /** The labels files read. */
  readonly sources: readonly string[];
  /** Lines of them skipped (the first of each file are in `issues`). */
  readonly skipped: number;
  readonly issues: readonly TraceIssue[];
  /** What was picked up, to say on stderr (one line each). */
  readonly notes: readonly string[];
}

interface Scoped {
  /** The folder whose files it labels, or null for every file. */
  readonly dir: string | null;
  readonly labels: SessionLabels;
}

/** The folder a labels file beside `path` would be in, or null (standard input, a path that does not exist). */
function folderOf(path: string): string | null {
  if (path === STDIN_PATH) return null;
  try {
    return statSync(path).isDirectory() ? path : dirname(path);
  } catch {
    return null;
  }
}

const within = (dir: string, file: string): boolean => {
  const r = relative(dir, file);
  return r !== '' && !r.startsWith('..') && !isAbsolute(r);
};

/**
 * The labels files beside `paths`: a `sessions.jsonl` whose first record is a label, in a folder given or
 * beside a file given (not one given itself). They are labels, not traces: scan and explain pass over them
 * when they walk a folder (`ignore`), the one rule both follow.
 */
export async function labelsBeside(paths: readonly string[]): Promise<string[]> {
  const beside: string[] = [];
  for (const p of paths) {
    const dir = folderOf(p);
    const candidate = dir === null ? null : join(dir, LABELS_FILE_NAME);
    if (candidate === null || candidate === join(p) || beside.includes(candidate)) continue;
    if (await looksLikeLabels(candidate)) beside.push(candidate);
  }
  return beside;
}

/** The labels for a scan of `paths`: from `labelsFile` (`--labels`), else found beside the inputs; null when there are none. */
export async function scanLabels(paths: readonly string[], labelsFile: string | undefined): Promise<ScanLabels | null> {
  const notes: string[] = [];
  const say = (line: string): number => notes.push(line);
  const beside = await labelsBeside(paths);
  const scoped: Scoped[] = [];
  if (labelsFile !== undefined) {
    const labels = await readSessionLabels(labelsFile);
    if (labels.issues[0]?.code === 'missing-input') throw new UsageError(`--labels ${labelsFile}: no such file`);
    scoped.push({ dir: null, labels });
    say(`loopwatch: labels of ${labels.labels.size.toLocaleString('en-US')} sessions from ${labelsFile} (--labels)`);
    for (const b of beside) say(`loopwatch: ${b} looks like labels: not read as a trace (and not used: --labels was given)`);
  } else {
    for (const b of beside) {
      const labels = await readSessionLabels(b);
      scoped.push({ dir: dirname(b), labels });
      say(`loopwatch: labels of ${labels.labels.size.toLocaleString('en-US')} sessions from ${b}, for the sessions read in ${dirname(b)} (not read as a trace; --labels FILE to choose another)`);
    }
  }
  if (scoped.length === 0 && beside.length === 0) return null;
  // --labels labels every file; else the deepest folder holding the file. A one-entry memo: a file's sessions end together
  let memo: { file: string; found: Scoped | undefined } | null = null;
  const scopeOf = (file: string): Scoped | undefined => {
    if (memo?.file === file) return memo.found;
    let found: Scoped | undefined;
    for (const s of scoped) {
      if (s.dir === null) return s;
      if (within(s.dir, file) && (found === undefined || s.dir.length > (found.dir ?? '').length)) found = s;
    }
    memo = { file, found };
    return found;
  };
  return {
    labelOf: (file, session) => {
      const s = scopeOf(file);
      if (s === undefined) return undefined;
      // a session named after its file (a Gemini CLI checkpoint: FILE:LINE) finds its label however the path was typed
      return s.labels.labels.get(session) ?? fileNamedLabel(s.labels.labels, session, s.dir ?? dirname(s.labels.file));
    },
    ignore: beside,
    sources: scoped.map((s) => s.labels.file),
    skipped: scoped.reduce((n, s) => n + s.labels.skipped, 0),
    issues: scoped.flatMap((s) => s.labels.issues),
    notes,
  };
}
