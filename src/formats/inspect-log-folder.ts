/**
 * Inspect AI's log folder: beside its logs (`.eval` archives, or `.json` ones) an eval set writes
 * `eval-set.json` (the set's tasks and settings) and `logs.json` (a listing of the logs' headers), neither
 * holding a call. A folder scan passes them over, with one note, where the folder is plainly an Inspect log
 * folder: it holds `eval-set.json`, or `logs.json` beside a `.eval` file.
 */
import type { Dirent } from 'node:fs';

/** What an Inspect log folder holds beside its logs. */
export const INSPECT_COMPANIONS: ReadonlySet<string> = new Set(['eval-set.json', 'logs.json']);

/** An Inspect `.eval` log, optionally gzipped. */
const EVAL_FILE = /\.eval(\.gz)?$/i;

/** Whether `entries` (a folder's) are an Inspect log folder's: `eval-set.json`, or `logs.json` beside a `.eval` file. */
export function isInspectLogFolder(entries: readonly Dirent[]): boolean {
  const file = (name: string): boolean => entries.some((e) => e.name === name && e.isFile());
  return file('eval-set.json') || (file('logs.json') && entries.some((e) => e.isFile() && EVAL_FILE.test(e.name)));
}

/** The note of an Inspect log folder. */
export const INSPECT_FOLDER_NOTE = 'an Inspect AI log folder: its eval-set.json and logs.json (the set\'s settings and a listing of the logs, no calls) passed over';
