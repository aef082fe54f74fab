/**
 * What `loopwatch calibrate` reads in the label file beyond what an evaluation reads (labels.ts): per
 * labelled session, its task group (`task_group`: runs of one task are kept in one fold, so a task is
 * never both fitted on and judged), whether it solved its task (`resolved`), and whether an interactive
 * session holds a genuine loop (`loop: true`). Lines labels.ts skips are skipped here too, silently (it
 * reports them); a field of the wrong type is taken as absent.
 */
import { readLabelFileBytes } from '../formats/label-file-bytes.js';

/** The extra facts of one label. */
export interface LabelFacts {
  readonly taskGroup: string | undefined;
  readonly resolved: boolean | undefined;
  readonly loop: boolean;
}

/** The extra facts by labelled session id (an unreadable file gives none). */
export function readLabelFacts(file: string): ReadonlyMap<string, LabelFacts> {
  const out = new Map<string, LabelFacts>();
  let bytes: Buffer;
  try {
    bytes = readLabelFileBytes(file);
  } catch {
    return out;
  }
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if (typeof o.session !== 'string' || o.session === '' || out.has(o.session)) continue;
    out.set(o.session, {
      taskGroup: typeof o.task_group === 'string' && o.task_group !== '' ? o.task_group : undefined,
      resolved: typeof o.resolved === 'boolean' ? o.resolved : undefined,
      loop: o.loop === true,
    });
  }
  return out;
}
