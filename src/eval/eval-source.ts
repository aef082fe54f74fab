/**
 * What an evaluation reads: a folder of runs in any format the scan readers know (walked as `loopwatch
 * scan` walks it) and a label file saying how each run ended (`sessions.jsonl` in the folder unless named).
 * The label file itself is never read as a run.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listInputs } from '../formats/list-inputs.js';
import { isRegularFile } from '../formats/session-labels.js';
import type { TraceIssue } from '../formats/trace-record.js';
import { type LabelBook, readLabels } from './labels.js';

/** The label file looked for in a folder of runs. */
export const LABELS_FILE = 'sessions.jsonl';

/** The runs and labels of one evaluation. */
export interface EvalSource {
  /** The run files, in the order a scan of the folder reads them. */
  readonly inputs: readonly string[];
  readonly labelsPath: string;
  readonly labels: LabelBook;
  /** Paths that could not be listed. */
  readonly issues: readonly TraceIssue[];
}

/** Why an evaluation cannot start (no folder, no labels): one line for the user. */
export class EvalSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvalSourceError';
  }
}

/** Lists the runs under `dir` and reads the labels (`labelsPath`, else `dir/sessions.jsonl`). */
export async function openEvalSource(dir: string, labelsPath?: string): Promise<EvalSource> {
  if (!existsSync(dir)) throw new EvalSourceError(`${dir}: no such file or folder`);
  const labelsAt = labelsPath ?? (statSync(dir).isDirectory() ? join(dir, LABELS_FILE) : '');
  if (labelsAt === '' || !existsSync(labelsAt)) {
    throw new EvalSourceError(`no labels: ${labelsAt === '' ? `${dir} is a file` : `${labelsAt} does not exist`}; give a folder holding ${LABELS_FILE}, or --labels FILE`);
  }
  // a FIFO or device found under the name would block the read or never end it; one the user names is read
  if (labelsPath === undefined && !isRegularFile(labelsAt)) {
    throw new EvalSourceError(`no labels: ${labelsAt} is not a regular file (a FIFO, a device or a link to one), not read; give --labels FILE to read it anyway`);
  }
  const skip = resolve(labelsAt);
  const inputs: string[] = [];
  const issues: TraceIssue[] = [];
  for await (const item of listInputs(dir)) {
    if ('code' in item) issues.push(item);
    else if ((item.kind === 'file' || item.kind === 'fifo') && resolve(item.file) !== skip) inputs.push(item.file);
  }
  return { inputs, labelsPath: labelsAt, labels: readLabels(labelsAt), issues };
}
