/**
 * The most entries a folder can hold, read from its size as the file system reports it, where the file
 * system's own layout makes its size such a bound; null elsewhere. So a folder that cannot hold more than a
 * walk may list whole is listed once, with `readdir` (whose names libuv sorts in C), and only a folder that
 * may be larger is counted first.
 *
 * | file system (Linux `statfs` type) | a directory's size | at least, bytes an entry |
 * |---|---|---|
 * | ext2/3/4 `0xEF53` | its blocks: records of 8 bytes and the name, padded to 4 | 12 |
 * | tmpfs `0x01021994` | 20 bytes an entry (`BOGO_DIRENT_SIZE`), 40 more | 20 |
 * | btrfs `0x9123683E` | twice the length of every name | 2 |
 * | XFS `0x58465342` | its data: a short form entry is at least 3 bytes, the name and its inode | 8 |
 * | ZFS `0x2FC12FC1` | the number of entries, 2 more | 1 |
 *
 * Others (overlayfs, whose merged folder shows one layer's size; NFS, FUSE, 9p; macOS and Windows) give no
 * bound. A folder that grows between its size and its listing holds what was added meanwhile too.
 */
import { stat, statfs } from 'node:fs/promises';

/** Least bytes of a directory's size per entry, by `statfs` type (Linux). */
const BYTES_PER_ENTRY: ReadonlyMap<number, number> = new Map([
  [0xef53, 12],
  [0x01021994, 20],
  [0x9123683e, 2],
  [0x58465342, 8],
  [0x2fc12fc1, 1],
]);

/** The most entries `dir` can hold by its size on a file system whose layout bounds it, else null (never throws). */
export async function folderSizeBound(dir: string): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  try {
    const per = BYTES_PER_ENTRY.get((await statfs(dir)).type);
    if (per === undefined) return null;
    const st = await stat(dir);
    return st.isDirectory() ? Math.floor(st.size / per) : null;
  } catch {
    return null;
  }
}
