/**
 * A folder's entries, read one at a time and held bounded: of the entries a walk may use (`keep`), only the
 * `max` first by name (code-unit order, as the walk sorts) are held, in a max-heap whose root is the last of
 * them; each further entry either replaces the root (it sorts before it) or is counted and dropped. So the
 * entries held are the same whatever order the file system lists them in (ext4 lists by hash, tmpfs by
 * creation), and memory is bounded by `max`, not by the folder (10 million names took ~2.5 GB when the
 * folder was listed whole to be sorted: `readdir` holds every name, and every `Dirent`, at once).
 *
 * ```
 *        heap[0] = the last held name            a new entry e:
 *        /                 \                        e < heap[0]  -> replaces heap[0], sifted down
 *   heap[1]  >=  children  heap[2]                   e >= heap[0] -> dropped (counted in `seen`)
 * ```
 *
 * Until the cap the entries are only gathered; the heap is made when one more comes. Every entry is still read (the first `max` by name can only be known once all are seen): time grows with
 * the folder (about 13 µs an entry on tmpfs), memory does not.
 */
import type { Dir, Dirent } from 'node:fs';
import { opendir, readdir } from 'node:fs/promises';
import { folderSizeBound } from './folder-size-bound.js';

/**
 * Most entries one walk reads by default (trace files and folders, over all its folders; others are not
 * counted): a million, held in ~300 MB (a scan reads some 1,700 small files a second: a walk past this would
 * take ten minutes). `LOOPWATCH_MAX_FOLDER_ENTRIES` changes it.
 */
export const MAX_FOLDER_ENTRIES = 1_000_000;

/** The environment variable that sets the cap, a whole number of at least 1. */
export const MAX_FOLDER_ENTRIES_ENV = 'LOOPWATCH_MAX_FOLDER_ENTRIES';

/** Entries a folder is read in at a time (Node's default of 32 costs a call to the thread pool per 32 names). */
const READ_ENTRIES = 1024;

/** The entries held of one folder, sorted, and how many there were. */
export interface FolderEntries {
  /** The `max` first entries kept by name (all of them when there were no more), sorted by name. */
  readonly entries: Dirent[];
  /** How many entries were kept in all (`entries.length` when none was dropped). */
  readonly seen: number;
}

/** The order of the walk: by UTF-16 code unit of the name. */
export const byName = (a: { readonly name: string }, b: { readonly name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The cap in force: `LOOPWATCH_MAX_FOLDER_ENTRIES` when it is a whole number of at least 1, else {@link MAX_FOLDER_ENTRIES}. */
export function folderEntriesCap(env: NodeJS.ProcessEnv = process.env): number {
  const v = env[MAX_FOLDER_ENTRIES_ENV];
  if (v === undefined || !/^[1-9][0-9]{0,14}$/.test(v.trim())) return MAX_FOLDER_ENTRIES;
  return Number(v.trim());
}

/** Moves heap[i] down until neither child sorts after it. */
function siftDown(heap: Dirent[], i: number): void {
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const r = l + 1;
    const big = r < n && byName(heap[r]!, heap[l]!) > 0 ? r : l;
    if (byName(heap[big]!, heap[i]!) <= 0) return;
    [heap[i], heap[big]] = [heap[big]!, heap[i]!];
    i = big;
  }
}

/** Calls `each` with every entry of `dir`, a batch at a time (no promise per entry), letting the event loop run between batches. */
async function eachEntry(dir: string, each: (e: Dirent) => void): Promise<void> {
  const d: Dir = await opendir(dir, { bufferSize: READ_ENTRIES });
  try {
    let n = 0;
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      if (++n % READ_ENTRIES === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      each(e);
    }
  } finally {
    await d.close().catch(() => undefined);
  }
}

/**
 * The entries of `dir` that `keep` takes, at most `max` of them (the first by name), sorted. Throws the file
 * system's error when the folder cannot be opened or read on.
 *
 * A folder holding at most `whole` entries in all is read whole with `readdir`, whose names come sorted by
 * byte (libuv sorts them in C: sorting a million names in JavaScript took 4-7 s more, 12-14 s for names met
 * in a random order at load ~15), then sorted again by code unit (nearly in order already: 0.1 s). When its
 * size bounds its entries (folder-size-bound.ts: ext4, tmpfs, btrfs, XFS, ZFS) within `whole`, it is listed
 * once; else it is counted first (nothing held), and only a folder past `whole` goes through the heap.
 */
export async function folderEntries(dir: string, keep: (e: Dirent) => boolean, max: number, whole: number = max): Promise<FolderEntries> {
  const bound = await folderSizeBound(dir);
  let all = 0;
  if (bound === null || bound > whole) await eachEntry(dir, () => all++);
  if (all <= whole) {
    const kept = (await readdir(dir, { withFileTypes: true })).filter(keep);
    // else it grew meanwhile, past what may be held whole
    if (kept.length <= whole) return kept.length <= max ? { entries: kept.sort(byName), seen: kept.length } : { entries: kept.sort(byName).slice(0, max), seen: kept.length };
  }
  const held: Dirent[] = [];
  let heaped = false;
  let seen = 0;
  await eachEntry(dir, (e) => {
    if (!keep(e)) return;
    seen++;
    if (held.length < max) {
      held.push(e);
      return;
    }
    if (!heaped) {
      for (let i = (held.length >> 1) - 1; i >= 0; i--) siftDown(held, i);
      heaped = true;
    }
    if (max > 0 && byName(e, held[0]!) < 0) {
      held[0] = e;
      siftDown(held, 0);
    }
  });
  return { entries: held.sort(byName), seen };
}
