/**
 * A file system error in words a person can act on: which file, what went wrong, and what to do, in place
 * of Node's own text (`EACCES: permission denied, open '/home/u/.local/state/loopwatch/hooks/3f….lock'`),
 * which names a system call and a code but not what failed nor the way out. Callers add what their own
 * command offers (another folder by flag or variable).
 */
/** What each common code means, in words. */
const MEANINGS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  ELOOP: 'it is a symbolic link',
  EEXIST: 'something else is already there',
  EBUSY: 'it is busy',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open on the system',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error of the device',
  EFBIG: 'the file is too large (past the file size limit)',
  ENXIO: 'nothing reads it (a FIFO without a reader, or a device that is not there)',
};

/** The system calls loopwatch makes on files, as a verb. */
const VERBS: Readonly<Record<string, string>> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'make the folder',
  rename: 'rename',
  unlink: 'remove',
  rmdir: 'remove the folder',
  rm: 'remove',
  copyfile: 'copy',
  link: 'link',
  fsync: 'write',
  scandir: 'list the folder',
  stat: 'look at',
  lstat: 'look at',
  chmod: 'change the mode of',
};

/** A file system failure, split into what a person reads. */
export interface FileFailure {
  /** The file the call was about, when the error names one. */
  readonly path: string | undefined;
  /** `permission denied`, `the disk is full`, ... (the code itself for a rare one, the message for an error without a code). */
  readonly why: string;
  /** What was tried: `open`, `remove`, `make the folder`, ... */
  readonly verb: string;
  /** `cannot open /x/y.lock: permission denied` (without the path when the error names none). */
  readonly text: string;
  /**
   * What to do, said of the file's folder (or of the file itself, when asked), for the codes a person can act
   * on (permissions, a read-only or full disk), else null: `make the folder writable by you (chmod u+w)`.
   */
  readonly fix: string | null;
}

/**
 * `e` (a Node file system error, or anything thrown) as a {@link FileFailure}; `of` says what a permission
 * fix is about: the file's folder (the default: a file made, renamed or removed there) or the file itself (an
 * existing file opened for writing).
 */
export function fileFailure(e: unknown, of: 'folder' | 'file' = 'folder'): FileFailure {
  const err = e as NodeJS.ErrnoException;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  const path = typeof err?.path === 'string' ? err.path : undefined;
  const why = code === undefined ? (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '' : (MEANINGS[code] ?? code);
  const verb = typeof err?.syscall === 'string' ? (VERBS[err.syscall] ?? err.syscall) : 'use';
  const text = path === undefined ? why : `cannot ${verb} ${path}: ${why}`;
  return { path, why, verb, text, fix: fixFor(code, of) };
}

/**
 * `e` in one line with what to do when there is something to do (`cannot remove /x/y: permission denied;
 * make the folder writable by you ...`); with `named` false, without the file's name (`permission denied;
 * ...`: the same for every file a folder refuses, so it can be said once for all of them). An error that is
 * not a file system error is its message.
 */
export function fileProblem(e: unknown, named = true): string {
  if (typeof (e as NodeJS.ErrnoException | null)?.code !== 'string') return e instanceof Error ? e.message : String(e);
  const f = fileFailure(e);
  const said = named ? f.text : f.why;
  return f.fix === null ? said : `${said}; ${f.fix}`;
}

/** What to do about `code`, said of the file's folder or of the file. */
function fixFor(code: string | undefined, of: 'folder' | 'file'): string | null {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `make the ${of} writable by you (ls -${of === 'folder' ? 'ld' : 'l'} shows whose it is; chmod u+w when it is yours)`;
    case 'EROFS':
      return 'use a folder on a writable file system';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'free some space on its disk';
    case 'EFBIG':
      return 'raise the file size limit this runs under (ulimit -f)';
    default:
      return null;
  }
}

/** Whether `path` is the folder `dir` or lies inside it, both as given (not resolved): whose failure a file's is. */
export function isInFolder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
