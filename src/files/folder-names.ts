/**
 * A folder's names read as a stream (`opendirSync`, one batch of entries at a time) and only so far: at most
 * `max` entries are read, whatever the folder holds, so neither the time nor the memory of a listing grows
 * with a folder someone filled (`readdirSync` held every name at once, and read them all). Which entries
 * come first is the file system's order (ext4 by hash, tmpfs by creation): a caller that reads a folder
 * again after acting on what it read (removing the files it restored) reaches the rest in turn.
 */
import { type Dir, opendirSync } from 'node:fs';

/** Entries read from the folder at a time. */
const BATCH = 1024;

/** Calls `each` with the name of each entry of `dir`, at most `max` of them; whether there were more. Throws the file system's error when the folder cannot be opened. */
export function eachName(dir: string, max: number, each: (name: string) => void): { readonly read: number; readonly more: boolean } {
  const d: Dir = opendirSync(dir, { bufferSize: BATCH });
  let read = 0;
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      if (read === max) return { read, more: true };
      read++;
      each(e.name);
    }
    return { read, more: false };
  } finally {
    try {
      d.closeSync();
    } catch {
      // closed already
    }
  }
}
