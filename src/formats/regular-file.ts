/**
 * Opening an input file only when it is a regular file. A device, FIFO or socket named as an input (or
 * swapped in after a folder walk looked at it) is refused at open time with a {@link NotAFileError}: it is
 * opened without blocking (a FIFO with no writer would hang the open) and looked at through the descriptor
 * itself, so what is read is what was checked (`loopwatch scan /dev/zero` read for ever).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Dirent, type Stats } from 'node:fs';
import { fileFailure } from '../text/file-failure.js';

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

/** Largest file of a secret or certificate read (`--token-file`, NATS credentials and TLS files): 1 MiB. */
export const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/** A file over the size a reader takes: not read. */
export class FileTooLargeError extends Error {
  /** `size`: the file's size when its metadata said it (null when it grew past the limit as it was read). */
  constructor(readonly path: string, readonly limit: number, readonly size: number | null = null) {
    super(`the file is over the limit of ${limit} bytes; not read`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * The bytes of `path`, a regular file of at most `limit` bytes (read whole, never more than `limit` + 1
 * bytes taken in, also when the file grows as it is read). Throws a {@link NotAFileError} for a device,
 * FIFO or socket, a {@link FileTooLargeError} past the limit, or the open's or read's own error.
 */
export function readBoundedFile(path: string, limit: number): Buffer {
  const fd = openRegularFile(path);
  try {
    return readBoundedFd(fd, path, limit);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of `fd` (from {@link openRegularFile} for `path`, read from where it stands, left open), at most
 * `limit`, as {@link readBoundedFile} reads them: for a reader that looks at the descriptor itself too (its
 * owner and mode) before reading. Throws a {@link FileTooLargeError} past the limit, or the read's own error.
 */
export function readBoundedFd(fd: number, path: string, limit: number): Buffer {
  const size = fstatSync(fd).size;
  if (size > limit) throw new FileTooLargeError(path, limit, size);
  const parts: Buffer[] = [];
  let got = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - got));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    parts.push(chunk.subarray(0, n));
    got += n;
    if (got > limit) throw new FileTooLargeError(path, limit);
  }
  return Buffer.concat(parts, got);
}

/**
 * Why reading `path` failed, in a few words for a message: "not a regular file (a FIFO)", "permission denied",
 * "no such file or folder" (text/file-failure.ts), in place of Node's bare code (`EACCES`, `ENOENT`).
 */
export function readFailure(e: unknown): string {
  if (e instanceof NotAFileError || e instanceof FileTooLargeError) return e.message.replace(/; not read$/, '');
  return typeof (e as NodeJS.ErrnoException).code === 'string' ? fileFailure(e).why : e instanceof Error ? e.message : String(e);
}
