/**
 * What uninstall leaves of a settings file: its text without loopwatch's entries, and as few traces of
 * loopwatch as can be. When that text is the one a backup of install holds (the file as it was before),
 * the file is written back without a new backup and the backup is removed; when install made the file and
 * nothing else is in it, the file goes (and its folder, when that is left empty); otherwise the file is
 * written after a backup, as install writes it, and the backups kept are named.
 */
import { rmSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SettingsText, SettingsWriteError, ownBackups, textOf, writeSettings } from './settings-file.js';
import { type FileFailure, fileFailure } from '../text/file-failure.js';

function emptyObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}

/** Removes the file at `path`: null when it is gone, else why not (fileFailure). */
function removed(path: string): FileFailure | null {
  try {
    rmSync(path, { force: true });
    return null;
  } catch (e) {
    return fileFailure(e);
  }
}

/** What to do about a file that could not be removed: `make the folder writable by you (...) and run uninstall again, or delete it yourself`. */
const removeFix = (f: FileFailure): string => (f.fix === null ? 'delete it yourself' : `${f.fix} and run uninstall again, or delete it yourself`);

/** Writes what uninstall leaves of `old` (the file's new text: `text`); returns the lines saying what became of it. */
export function writeUninstalled(old: SettingsText, text: string, now = new Date()): string[] {
  const backups = ownBackups(old.path);
  const same = backups.filter((b) => textOf(b) === text);
  const kept = backups.filter((b) => !same.includes(b)).map((b) => `  backup     ${b} (kept: not the file as it is now)\n`);
  if (same.length !== 0) {
    writeSettings(old, text, now, false);
    const tried = same.map((b) => ({ b, why: removed(b) }));
    const gone = tried.filter((t) => t.why === null).map((t) => t.b);
    const said = gone.length === 0 ? '' : `; its backup is removed (${gone.join(', ')})`;
    const left = tried.filter((t) => t.why !== null).map((t) => `  backup     ${t.b} (could not be removed: ${(t.why as FileFailure).why}; delete it yourself)\n`);
    return [`  restored   the file as it was before install${said}\n`, ...left, ...kept];
  }
  if (backups.length === 0 && emptyObject(text)) {
    const f = removed(old.path);
    // nothing changed yet: said as install's write failures are, naming the file and what to do
    if (f !== null) throw new SettingsWriteError(`${old.path}: loopwatch's entries are all it holds, but it cannot be removed (${f.why}): ${removeFix(f)}`);
    try {
      rmdirSync(dirname(old.path)); // a folder install made for the file, left empty
    } catch {
      // not empty, or not ours to remove
    }
    return ['  removed    the file: install had made it, and nothing else is in it\n'];
  }
  return [`  backup     ${writeSettings(old, text, now)}\n`, ...kept];
}
