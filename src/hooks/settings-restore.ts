/**
 * What uninstall leaves of a settings file: its text without loopwatch's entries, and as few traces of
 * loopwatch as can be. When that text is the one a backup of install holds (the file as it was before),
 * the file is written back without a new backup and the backup is removed; when install made the file and
 * nothing else is in it, the file goes (and its folder, when that is left empty); otherwise the file is
 * written after a backup, as install writes it, and the backups kept are named.
 */
import { rmSync, rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SettingsText, ownBackups, textOf, writeSettings } from './settings-file.js';

function emptyObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}

/** Writes what uninstall leaves of `old` (the file's new text: `text`); returns the lines saying what became of it. */
export function writeUninstalled(old: SettingsText, text: string, now = new Date()): string[] {
  const backups = ownBackups(old.path);
  const same = backups.filter((b) => textOf(b) === text);
  const kept = backups.filter((b) => !same.includes(b)).map((b) => `  backup     ${b} (kept: not the file as it is now)\n`);
  if (same.length !== 0) {
    writeSettings(old, text, now, false);
    for (const b of same) rmSync(b, { force: true });
    return [`  restored   the file as it was before install; its backup is removed (${same.join(', ')})\n`, ...kept];
  }
  if (backups.length === 0 && emptyObject(text)) {
    rmSync(old.path, { force: true });
    try {
      rmdirSync(dirname(old.path)); // a folder install made for the file, left empty
    } catch {
      // not empty, or not ours to remove
    }
    return ['  removed    the file: install had made it, and nothing else is in it\n'];
  }
  return [`  backup     ${writeSettings(old, text, now)}\n`, ...kept];
}
