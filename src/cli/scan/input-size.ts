/** The bytes of a scan's inputs, for the progress bar's share read and time left. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS_FOLDER, EVENT_COMPANIONS } from '../../formats/event-folders.js';
import { STDIN_PATH, TRACE_FILE } from '../../formats/list-inputs.js';

/** Bytes of the trace files under `path` (a file, or a folder walked as the readers walk it). */
function bytesUnder(path: string): number {
  const s = statSync(path);
  if (s.isFile()) return s.size;
  if (!s.isDirectory()) return 0;
  let total = 0;
  const entries = readdirSync(path, { withFileTypes: true });
  const besideEvents = entries.some((e) => e.isDirectory() && e.name === EVENTS_FOLDER);
  for (const entry of entries) {
    if (besideEvents && EVENT_COMPANIONS.has(entry.name)) continue; // an OpenHands conversation's own files: not read
    const child = join(path, entry.name);
    if (entry.isDirectory()) total += bytesUnder(child);
    else if (entry.isFile() && TRACE_FILE.test(entry.name)) total += statSync(child).size;
  }
  return total;
}

/** Total bytes of the inputs (null with standard input among them). */
export function inputBytes(paths: readonly string[]): number | null {
  let total = 0;
  for (const p of paths) {
    if (p === STDIN_PATH) return null;
    try {
      total += bytesUnder(p);
    } catch {
      // a missing path is reported by the readers
    }
  }
  return total;
}
