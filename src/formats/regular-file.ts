/**
 * Opening an input file only when it is a regular file. A device, FIFO or socket named as an input (or
 * swapped in after a folder walk looked at it) is refused at open time with a {@link NotAFileError}: it is
 * opened without blocking (a FIFO with no writer would hang the open) and looked at through the descriptor
 * itself, so what is read is what was checked (`loopwatch scan /dev/zero` read for ever).
 */
import { closeSync, constants, fstatSync, openSync, type Dirent, type Stats } from 'node:fs';

/** What kind of entry `e` is, in words ("a FIFO", "a device", ...). */
export function entryKind(e: Dirent | Stats): string {
  if (e.isFIFO()) return 'a FIFO';
  if (e.isSocket()) return 'a socket';
  if (e.isCharacterDevice() || e.isBlockDevice()) return 'a device';
  if (e.isDirectory()) return 'a folder';
  if (e.isFile()) return 'a regular file';
  return 'an unknown kind of entry';
}

/** An input path that is not a regular file (a device, FIFO, socket or folder): not read. */
export class NotAFileError extends Error {
  /** The path refused. */
  readonly path: string;
  constructor(path: string, kind: string) {
    super(`not a regular file (${kind}); not read`);
    this.name = 'NotAFileError';
    this.path = path;
  }
}

/**
 * A descriptor open for reading on `path`, which must be a regular file (a link to one is followed).
 * Throws a {@link NotAFileError} for anything else, or the open's own error (ENXIO for a socket).
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotAFileError(path, entryKind(st));
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}
